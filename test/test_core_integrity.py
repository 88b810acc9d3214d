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
The core's integrity, as the callers see it.

The caller's data stays the caller's, the model is read-only (module-level state: see
test_package_integrity), cost is linear in the robot's size, bad input is refused.
"""

import tracemalloc

from conftest import bundled, joint_xml, link_xml, random_configuration, urdf
from frame_kinematics.core import configuration as cfg
from frame_kinematics.core import ConfigurationError, FrameTree, Robot
import numpy as np
import pytest

RNG_SEED = 11


# -- the caller's arrays are neither frozen nor aliased -------------------------------------------
def test_caller_arrays_stay_writable_and_are_not_kept():
    model = bundled('fk_arm')
    q = np.full(model.nq, 0.3)
    batch = np.full((20, model.nq), 0.3)
    state = model.forward_kinematics(q)
    model.jacobian(q, 'tool0')
    model.center_of_mass(q)
    model.forward_kinematics(batch)
    tree = FrameTree(model)
    tree.update(q)
    for array in (q, batch):
        assert array.flags.writeable
    assert state.q is not q and not np.shares_memory(state.q, q)
    before = state.transform('tool0').copy()
    tree_before = tree.transform(model.root_link, 'tool0').copy()
    q += 0.1  # a `q += dq` loop works
    batch[:] = 0.0
    np.testing.assert_array_equal(state.q, np.full(model.nq, 0.3))
    np.testing.assert_array_equal(state.transform('tool0'), before)
    np.testing.assert_array_equal(tree.transform(model.root_link, 'tool0'), tree_before)


def test_results_do_not_alias_each_other():
    model = bundled('fk_arm')
    state = model.forward_kinematics(np.full(model.nq, 0.2))
    jac = state.jacobian('tool0')
    jac[:] = 0.0
    assert np.any(state.jacobian('tool0'))
    position = state.position('tool0')
    position[:] = 0.0
    assert np.any(state.position('tool0'))


# -- the model is read-only -----------------------------------------------------------------------
def test_model_arrays_cannot_be_written_through_any_view():
    model = bundled('fk_arm')
    joint, link = model.joints[1], model.links[2]
    arrays = [joint.parent_T_joint, joint.axis, link.link_p_com, link.inertia, model.lower,
              model.upper, model.link_masses, model.link_p_coms, model.link_inertias,
              model.topology.parent, model.topology.subtree_end, model.kernel.origin]
    for array in arrays:
        with pytest.raises(ValueError):
            array[...] = 0
        with pytest.raises(ValueError):
            array.flags.writeable = True
        view = array.reshape(-1)
        with pytest.raises(ValueError):
            view.flags.writeable = True


def test_model_attributes_cannot_be_replaced():
    model = bundled('fk_arm')
    q = np.full(model.nq, 0.4)
    before = model.forward_kinematics(q).transform('tool0').copy()
    for name, value in (('nq', 3), ('kernel', None), ('lower', np.zeros(model.nq))):
        with pytest.raises(AttributeError, match='read-only'):
            setattr(model, name, value)
    with pytest.raises(AttributeError):
        model.joints[1].parent_T_joint = np.eye(4)
    np.testing.assert_array_equal(model.forward_kinematics(q).transform('tool0'), before)


# -- no module-level state ------------------------------------------------------------------------
# -- memory and time linear in the number of links ------------------------------------------------
def _chain(n, mimic_every=0):
    body = ''.join(link_xml(f'l{i}', 1.0, '0.01 0 0') for i in range(n + 1))
    for i in range(n):
        axis = ('1 0 0', '0 1 0', '0 0 1')[i % 3]
        extra = f'<mimic joint="j{i - 1}" multiplier="0.5"/>' if mimic_every and \
            i % mimic_every == mimic_every - 1 else ''
        body += joint_xml(f'j{i}', 'revolute', f'l{i}', f'l{i + 1}', '0 0 0.01', axis=axis,
                          extra=extra)
    return urdf(body, f'chain{n}')


def _peak_bytes(text):
    tracemalloc.start()
    try:
        model = Robot.from_urdf_string(text)
        q = np.full(model.nq, 0.01)
        state = model.forward_kinematics(q)
        tip = model.links[-1].name
        state.jacobian(tip)
        state.center_of_mass()
        state.center_of_mass_jacobian()
        model.forward_kinematics(np.tile(q, (20, 1))).jacobian(tip)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_memory_grows_linearly_with_the_chain_length():
    small, large = _peak_bytes(_chain(150, 4)), _peak_bytes(_chain(600, 4))
    # 4x the links: linear costs 4x; the old support tables grew as links x columns (16x) and
    # the per-link expansion matrices as links^3 (64x, 600 links: ~0.9 GB).
    assert large < 6 * small
    assert large < 60e6


def test_long_chain_gives_finite_exact_results():
    model = Robot.from_urdf_string(_chain(1000, 7))
    rng = np.random.default_rng(RNG_SEED)
    q = random_configuration(model, rng) * 0.01
    state = model.forward_kinematics(q)
    tip = model.links[-1].name
    jac = state.jacobian(tip)
    assert jac.shape == (6, model.nv) and np.all(np.isfinite(jac))
    assert np.all(np.isfinite(state.center_of_mass_jacobian()))
    # The tip's velocity from the Jacobian equals the central difference of its position.
    dq = rng.normal(size=model.nv) * 1e-6
    ahead = model.forward_kinematics(q + dq).position(tip)
    behind = model.forward_kinematics(q - dq).position(tip)
    np.testing.assert_allclose((ahead - behind) / 2, jac[:3] @ dq, rtol=1e-6, atol=1e-13)


# -- bad input gets the library's own error -------------------------------------------------------
@pytest.mark.parametrize('bad, message', [
    (np.zeros(7, dtype=complex) + 1j, 'complex'),
    ([0.1] * 6 + [1j], 'complex'),
    (b'\x00' * 56, 'numbers'),
    ([0.0] * 6 + [None], 'real numbers'),
    ([0.0] * 6 + [10 ** 400], 'real numbers'),
    ([0.0] * 6 + [1e308], 'magnitude'),
    (np.array(['0'] * 7), 'real numbers'),
    ([[0.0] * 7, [0.0] * 6], 'numbers'),
])
def test_odd_configurations_are_refused(bad, message):
    model = bundled('fk_arm')
    with pytest.raises(ConfigurationError, match=message):
        model.forward_kinematics(bad)


@pytest.mark.parametrize('point', [[0, 0, np.nan], [1e308, 0, 0], [1, 2], 'abc', [1j, 0, 0],
                                   None.__class__])
def test_position_validates_the_point(point):
    state = bundled('fk_arm').forward_kinematics(np.zeros(7))
    with pytest.raises(ConfigurationError, match='point'):
        state.position('tool0', point)


def test_one_quaternion_tolerance():
    model = bundled('fk_quadruped', floating_base=True)
    q = model.neutral_configuration()
    q[6] = 1.0 + 5e-5
    model.forward_kinematics(q)
    assert cfg.is_valid(model, q)
    q[6] = 1.0 + 2e-4
    with pytest.raises(ConfigurationError, match='norm'):
        model.forward_kinematics(q)
    assert not cfg.is_valid(model, q)


@pytest.mark.parametrize('size', [float('nan'), float('inf'), 2.5, -1, True, '3', 10 ** 12])
def test_sample_counts_are_checked(size):
    with pytest.raises(ConfigurationError, match='size'):
        cfg.random_uniform(bundled('fk_arm'), np.random.default_rng(0), size)
