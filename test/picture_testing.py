# Copyright 2026 The frame_kinematics Authors
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.
"""
Shared helpers of the picture tests: the figures a picture saves, and real robots to draw.

Plain functions and constants (no model is made at import).
"""

import pytest


def saved_figures(monkeypatch):
    """Keep every figure render saves, drawn as it was saved."""
    figure = pytest.importorskip('matplotlib.figure')
    saved = []
    original = figure.Figure.savefig

    def savefig(fig, *args, **kwargs):
        original(fig, *args, **kwargs)
        saved.append(fig)

    monkeypatch.setattr(figure.Figure, 'savefig', savefig)
    return saved


#: Real robots the picture tests draw: ``(URDF in example-robot-data, or None for the
#: bundled one, floating base, joint values)``.
REAL = {
    'panda': ('panda_description/urdf/panda.urdf', False,
              {'panda_joint2': 0.5, 'panda_joint4': -1.5, 'panda_joint6': 1.8}),
    'ur5': ('ur_description/urdf/ur5_robot.urdf', False,
            {'shoulder_lift_joint': -1.2, 'elbow_joint': 1.4, 'wrist_1_joint': -1.6}),
    'talos': ('talos_data/robots/talos_reduced.urdf', True, {}),
    'fk_arm': (None, False, {'shoulder_pan_joint': 0.5, 'shoulder_lift_joint': -1.2,
                             'elbow_joint': 1.4, 'wrist_1_joint': -1.6, 'wrist_2_joint': -1.57,
                             'left_finger_joint': 0.03}),
}
