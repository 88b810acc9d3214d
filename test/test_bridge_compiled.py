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
The bridge publishes from its first message on numpy and moves to numba without a gap.

Messages are fed while the compiled backend is made ready in the bridge's thread: every one
is published, with its own stamp, and the transforms equal the numpy bridge's to 1e-12
before, during and after the move.
"""

from conftest import ListLogger, random_configuration
from frame_kinematics import robots
from frame_kinematics.bridge import Bridge, BridgeSettings, JointStateInput
import numpy as np
import pytest

pytest.importorskip('numba')

SEC = 1_000_000_000


def _urdf(name='fk_quadruped'):
    with open(robots.path(name)) as handle:
        return handle.read()


def _messages(bridge, count, seed=5):
    model = bridge.model
    rng = np.random.default_rng(seed)
    names = list(model.configuration_names)
    return [JointStateInput(names, list(random_configuration(model, rng)), (), SEC + k)
            for k in range(count)]


def test_the_bridge_starts_on_numpy_and_moves_to_numba_between_two_messages():
    settings = BridgeSettings(publish_frequency=0.0)
    reference = Bridge(_urdf(), settings, logger=ListLogger())
    log = ListLogger()
    compiled = Bridge(_urdf(), settings, logger=log, backend='numba')
    assert compiled.model.backend == 'numpy'  # publishing at once, as robot_state_publisher
    stamps = []
    messages = _messages(reference, 400)
    for k, msg in enumerate(messages):
        if k == 200:
            assert compiled.wait_compiled(900)
        ours, theirs = compiled.on_joint_state(msg, SEC), reference.on_joint_state(msg, SEC)
        assert ours.accepted and theirs.accepted
        assert [t.child for t in ours.tf] == [t.child for t in theirs.tf]
        for a, b in zip(ours.tf, theirs.tf):
            np.testing.assert_allclose(a.translation, b.translation, rtol=0, atol=1e-12)
            np.testing.assert_allclose(a.rotation, b.rotation, rtol=0, atol=1e-12)
        stamps.append({t.stamp_ns for t in ours.tf})
    assert stamps == [{msg.stamp_ns} for msg in messages]  # each message once, its own stamp
    assert compiled.model.backend == 'numba'
    assert 'kinematics now on the compiled backend (numba)' in log.texts('info')
    np.testing.assert_array_equal(compiled.configuration, reference.configuration)


def test_an_unwritable_kernel_cache_keeps_the_bridge_on_numpy(tmp_path, monkeypatch):
    blocker = tmp_path / 'a_file'
    blocker.write_text('')
    monkeypatch.setenv('FRAME_KINEMATICS_CACHE_DIR', str(blocker / 'cache'))
    log = ListLogger()
    bridge = Bridge(_urdf(), logger=log, backend='numba')
    assert not bridge.wait_compiled(60)
    assert bridge.model.backend == 'numpy'
    assert any('cannot be cached' in text for text in log.texts())


def test_a_robot_loaded_while_compiling_is_the_one_moved_to_numba():
    log = ListLogger()
    bridge = Bridge(_urdf('fk_quadruped'), logger=log, backend='numba')
    out = bridge.set_robot_description(_urdf('fk_arm'), SEC)
    assert out.accepted
    assert bridge.wait_compiled(900)
    bridge.wait_compiled(900)  # the first robot's move, if it ended later, changed nothing
    assert bridge.model.backend == 'numba'
    assert bridge.model.name == 'fk_arm'


def test_the_compiled_robot_is_the_parsed_one_put_on_numba_and_not_parsed_again(core_log):
    log = core_log('frame_kinematics.core.assembly')
    body = _urdf('fk_arm').replace(
        '</robot>', '<link name="pad"/><joint name="pad_joint" type="fixed"><parent '
        'link="tool0"/><child link="pad"/><mimic joint="elbow_joint"/></joint></robot>')
    bridge = Bridge(body, BridgeSettings(), logger=ListLogger(), backend='numba')
    assert bridge.wait_compiled(900)
    assert bridge.model.backend == 'numba'
    assert log.text.count('the <mimic> of fixed joint pad_joint is ignored') == 1
