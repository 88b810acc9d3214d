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
The bridge's ``/tf`` path on the compiled backend against the numpy one.

Two bridges on the same URDF, one per backend, take the same messages: every transform (joints
and the robot CoM frame) and every CoM value must be equal to 1e-12, on the bundled robots,
a tree with every joint type and the example-robot-data robots. The compiled TF kernel is
also compared with the joint kernel's ``local_tf`` and the core's CoM directly. Skipped when
numba is not installed.
"""

from conftest import all_joint_types_model, ListLogger, random_configuration, real_robot_path
from frame_kinematics import robots
from frame_kinematics.bridge import Bridge, BridgeSettings, JointStateInput
from frame_kinematics.core import backend, Robot
import numpy as np
import pytest

TOLERANCE = 1e-12
ROBOTS = tuple(f'bundled:{name}' for name in robots.names()) + (
    'all_types', 'ur5', 'panda', 'talos', 'solo12', 'iiwa')
SEC = 1_000_000_000
#: Settings of the compiled path (no frame tree, the CoM velocity and momentum included) and
#: of the tree path (markers, orientations that need the poses).
SETTINGS = {
    'compiled': {'publish_com_topics': False, 'publish_com_markers': False},
    'compiled_com_position': {'publish_com_markers': False},
    'compiled_quaternion': {'publish_com_markers': False, 'com_orientation': 'quaternion',
                            'com_quaternion': (0.0, 0.6, 0.0, 0.8)},
    'compiled_skip_floating': {'publish_com_markers': False, 'floating_joints': 'skip'},
    'compiled_prefix_no_com': {'frame_prefix': 'r/', 'publish_com_frame': False,
                               'publish_com_topics': False, 'publish_com_markers': False},
    'tree_default': {},
    'tree_yaw': {'com_orientation': 'yaw'},
    'tree_ypr': {'publish_com_markers': False, 'com_orientation': 'ypr',
                 'com_ypr': (0.3, -0.2, 0.1)},
}


def _urdf(name):
    if name == 'all_types':
        return all_joint_types_model(backend='numpy').urdf
    path = robots.path(name[8:]) if name.startswith('bundled:') else real_robot_path(name)
    with open(path) as handle:
        return handle.read()


@pytest.fixture(scope='module', params=ROBOTS)
def urdf(request):
    pytest.importorskip('numba')
    return _urdf(request.param)


def _bridges(monkeypatch, urdf, settings):
    """Build the same bridge on both backends: ``(numpy, numba)``."""
    pair = []
    for name in backend.BACKENDS:
        bridge = Bridge(urdf, BridgeSettings(publish_frequency=0.0, **settings),
                        logger=ListLogger(), backend=name)
        assert bridge.wait_compiled(900) == (name == 'numba')
        assert bridge.model.backend == name
        pair.append(bridge)
    return tuple(pair)


def _messages(model, rng, count):
    """Messages naming every configuration entry, every other one with velocities."""
    names = list(model.configuration_names)
    one_dof = len(names) == model.nv
    out = []
    for k in range(count):
        q = random_configuration(model, rng)
        velocities = list(rng.normal(size=len(names))) if one_dof and k % 2 else []
        out.append(JointStateInput(names, list(q), velocities, SEC + k))
    return out


def _same_transforms(ours, theirs):
    assert [(t.parent, t.child, t.stamp_ns) for t in ours] == \
        [(t.parent, t.child, t.stamp_ns) for t in theirs]
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a.translation, b.translation, rtol=0.0, atol=TOLERANCE)
        np.testing.assert_allclose(a.rotation, b.rotation, rtol=0.0, atol=TOLERANCE)


def _same_com(ours, theirs):
    assert (ours is None) == (theirs is None)
    if ours is None:
        return
    assert (ours.stamp_ns, ours.frame_id) == (theirs.stamp_ns, theirs.frame_id)
    for field in ('position', 'velocity', 'angular_momentum'):
        a, b = getattr(ours, field), getattr(theirs, field)
        assert (a is None) == (b is None)
        if a is not None:
            np.testing.assert_allclose(a, b, rtol=0.0, atol=TOLERANCE)


@pytest.mark.parametrize('case', sorted(SETTINGS))
def test_both_backends_publish_the_same_transforms(urdf, case, monkeypatch):
    reference, compiled = _bridges(monkeypatch, urdf, SETTINGS[case])
    if case.startswith('compiled'):
        def no_tree(*args):
            raise AssertionError('the compiled /tf path built a frame tree')
        monkeypatch.setattr(compiled._publisher, '_tree_at', no_tree)
    rng = np.random.default_rng(21)
    for msg in _messages(reference.model, rng, 4):
        theirs = reference.on_joint_state(msg, SEC)
        ours = compiled.on_joint_state(msg, SEC)
        assert ours.accepted and theirs.accepted
        _same_transforms(ours.tf, theirs.tf)
        _same_com(ours.center_of_mass, theirs.center_of_mass)
        assert (ours.markers is None) == (theirs.markers is None)
    np.testing.assert_array_equal(compiled.configuration, reference.configuration)


def test_a_subset_publishes_only_its_joints_on_both_backends(monkeypatch):
    pytest.importorskip('numba')
    reference, compiled = _bridges(monkeypatch, _urdf('talos'), SETTINGS['compiled'])
    names = [j.name for j in reference.model.actuated_joints][3:11]
    for k, values in enumerate(np.random.default_rng(22).uniform(-1, 1, (3, len(names)))):
        msg = JointStateInput(names, list(values), (), SEC + k)
        ours, theirs = compiled.on_joint_state(msg, SEC), reference.on_joint_state(msg, SEC)
        assert len(ours.tf) == len(names)  # no CoM before every joint was received
        _same_transforms(ours.tf, theirs.tf)


@pytest.mark.parametrize('value', [float('nan'), float('inf'), 1e300])
def test_a_bad_value_changes_nothing_on_the_compiled_path(monkeypatch, value):
    pytest.importorskip('numba')
    _, compiled = _bridges(monkeypatch, _urdf('bundled:fk_arm'), SETTINGS['compiled'])
    names = list(compiled.model.joint_names)
    good = compiled.on_joint_state(JointStateInput(names, [0.2] * len(names), (), SEC), SEC)
    before = compiled.configuration
    out = compiled.on_joint_state(JointStateInput(names, [0.1] * (len(names) - 1) + [value],
                                                  (), SEC + 1), SEC)
    assert good.accepted and not out.accepted and names[-1] in out.reason and not out.tf
    np.testing.assert_array_equal(compiled.configuration, before)


@pytest.mark.parametrize('name', ROBOTS)
def test_tf_kernel_equals_local_tf_and_the_core_com(name):
    pytest.importorskip('numba')
    model = Robot.from_urdf_string(_urdf(name), backend='numpy')
    kernels = Robot.from_urdf_string(_urdf(name), backend='numba').executor.tf
    rows = np.random.default_rng(23).permutation(model.kernel.n_rows).astype(np.int64)
    for q in random_configuration(model, np.random.default_rng(24), 5):
        translations, quats = model.kernel.local_tf(q, rows)
        for reference in range(-1, len(model.links)):
            table, com = kernels.transforms(q, rows, reference)
            np.testing.assert_allclose(table[:, :3], translations, rtol=0.0, atol=TOLERANCE)
            np.testing.assert_allclose(table[:, 3:], quats, rtol=0.0, atol=TOLERANCE)
            if reference < 0 or model.total_mass <= 0:
                assert com.shape == (0,)
                continue
            state = model.forward_kinematics(q)
            root_T_reference = state.poses[reference]
            expected = root_T_reference[:3, :3].T @ (state.center_of_mass()
                                                     - root_T_reference[:3, 3])
            np.testing.assert_allclose(com, expected, rtol=0.0, atol=TOLERANCE)
