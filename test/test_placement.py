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
"""Tools and world placement: every result of the placed model is the composed original one."""

from conftest import (all_joint_types_model, bundled, joint_xml, link_xml, random_configuration,
                      urdf)
from frame_kinematics.core import configuration as cfg
from frame_kinematics.core import ConfigurationError, Robot, UnknownFrameError, URDFError
from frame_kinematics.core.placement import place, tool_link_name
from frame_kinematics.core.spatial import (inverse, log_so3, motion_transform,
                                           transform_from_xyz_rpy)
import numpy as np
import pytest

WORLD_T_ROOT = transform_from_xyz_rpy(np.array([1.0, -2.0, 0.5]), np.array([0.3, -0.2, 1.1]))
TIP_T_TOOL = transform_from_xyz_rpy(np.array([0.05, 0.02, 0.15]), np.array([0.4, 0.1, -0.7]))


@pytest.fixture(scope='module')
def original():
    return all_joint_types_model(backend='numpy')


@pytest.fixture(scope='module')
def placed(original):
    return place(original, {'tip': TIP_T_TOOL, 'a': np.eye(4)}, WORLD_T_ROOT,
                 tool_names={'a': 'probe'})


def test_the_placed_model_adds_links_and_keeps_the_layout(original, placed):
    assert placed.root_link == 'world' and placed.link('base').parent == 'world'
    assert placed.link('tip_tool').parent == 'tip' and placed.link('probe').parent == 'a'
    assert tool_link_name('tip') == 'tip_tool'
    assert placed.joint('tip_tool_joint').type.value == 'fixed'
    assert set(placed.link_names) == set(original.link_names) | {'world', 'tip_tool', 'probe'}
    assert placed.configuration_names == original.configuration_names
    assert placed.velocity_names == original.velocity_names
    np.testing.assert_array_equal(placed.lower, original.lower)
    assert placed.total_mass == original.total_mass
    assert placed.urdf == original.urdf and placed.name == original.name
    assert placed.joint('j_mimic').mimic == original.joint('j_mimic').mimic
    np.testing.assert_array_equal(placed.joint('world_joint').parent_T_joint, WORLD_T_ROOT)
    # The original is untouched.
    assert 'world' not in original.link_names and original.root_link == 'base'


def test_forward_kinematics_is_composed_with_world_and_tool(original, placed):
    q = random_configuration(original, np.random.default_rng(0), 16)
    for link in original.link_names:
        np.testing.assert_allclose(placed.transform(q, link),
                                   WORLD_T_ROOT @ original.transform(q, link), atol=1e-12)
    np.testing.assert_allclose(placed.transform(q, 'tip_tool'),
                               WORLD_T_ROOT @ original.transform(q, 'tip') @ TIP_T_TOOL,
                               atol=1e-12)
    np.testing.assert_allclose(placed.transform(q, 'probe'),
                               WORLD_T_ROOT @ original.transform(q, 'a'), atol=1e-12)
    np.testing.assert_allclose(placed.transform(q, 'world'),
                               np.broadcast_to(np.eye(4), (16, 4, 4)))


def test_center_of_mass_is_in_the_world(original, placed):
    q = random_configuration(original, np.random.default_rng(1), 8)
    mass, root_p_com = original.center_of_mass(q)
    placed_mass, world_p_com = placed.center_of_mass(q)
    assert placed_mass == pytest.approx(mass)
    np.testing.assert_allclose(world_p_com, root_p_com @ WORLD_T_ROOT[:3, :3].T
                               + WORLD_T_ROOT[:3, 3], atol=1e-12)


def finite_difference_jacobian(model, q, link, step=1e-6):
    """LOCAL_WORLD_ALIGNED Jacobian of a link from central differences of its pose."""
    columns = []
    for k in range(model.nv):
        v = np.zeros(model.nv)
        v[k] = step
        ahead = model.transform(cfg.integrate(model, q, v), link)
        behind = model.transform(cfg.integrate(model, q, -v), link)
        linear = (ahead[:3, 3] - behind[:3, 3]) / (2 * step)
        angular = log_so3(ahead[:3, :3] @ behind[:3, :3].T) / (2 * step)
        columns.append(np.concatenate([linear, angular]))
    return np.stack(columns, axis=1)


def test_jacobians_of_the_tool_point(original, placed):
    rng = np.random.default_rng(2)
    for q in random_configuration(original, rng, 4):
        jac = placed.jacobian(q, 'tip_tool')
        np.testing.assert_allclose(jac, finite_difference_jacobian(placed, q, 'tip_tool'),
                                   atol=1e-7)
        # The original's Jacobian of the tool point, turned to world axes.
        rotate = np.kron(np.eye(2), WORLD_T_ROOT[:3, :3])
        untouched = original.jacobian(q, 'tip', point=TIP_T_TOOL[:3, 3])
        np.testing.assert_allclose(jac, rotate @ untouched, atol=1e-12)
        np.testing.assert_allclose(placed.jacobian(q, 'tip_tool', expressed_in='world'),
                                   motion_transform(WORLD_T_ROOT)
                                   @ original.jacobian(q, 'tip', expressed_in='world'),
                                   atol=1e-12)
        np.testing.assert_allclose(placed.jacobian(q, 'tip_tool', expressed_in='local'),
                                   motion_transform(inverse(TIP_T_TOOL))
                                   @ original.jacobian(q, 'tip', expressed_in='local'),
                                   atol=1e-12)


def test_inverse_kinematics_reaches_tool_targets():
    arm = bundled('fk_arm', backend='numpy')
    tool = place(arm, {'flange': TIP_T_TOOL}, WORLD_T_ROOT)
    rng = np.random.default_rng(3)
    goal = random_configuration(arm, rng)
    target = tool.transform(goal, 'flange_tool')
    seed = goal + rng.normal(scale=0.05, size=arm.nq)
    result = tool.inverse_kinematics('flange_tool', target, seed=seed, restarts=0,
                                     time_budget=3600.0, max_iterations=500)
    assert result.success
    np.testing.assert_allclose(tool.transform(result.q, 'flange_tool'), target, atol=1e-4)
    # The untouched model's flange is where the tool target puts it.
    np.testing.assert_allclose(arm.transform(result.q, 'flange'),
                               inverse(WORLD_T_ROOT) @ target @ inverse(TIP_T_TOOL), atol=1e-4)


def test_numba_placed_models_agree(original):
    pytest.importorskip('numba')
    compiled = place(all_joint_types_model(backend='numba'), {'tip': TIP_T_TOOL}, WORLD_T_ROOT)
    assert compiled.backend == 'numba'
    q = random_configuration(original, np.random.default_rng(4), 4)
    np.testing.assert_allclose(compiled.transform(q, 'tip_tool'),
                               WORLD_T_ROOT @ original.transform(q, 'tip') @ TIP_T_TOOL,
                               atol=1e-12)


@pytest.mark.parametrize('call, error, fragment', [
    (lambda m: place(m, {'nope': np.eye(4)}), UnknownFrameError, "unknown link 'nope'"),
    (lambda m: place(m, {'tip': np.eye(3)}), ConfigurationError, 'must be one 4x4 transform'),
    (lambda m: place(m, {'tip': 2 * np.eye(4)}), ConfigurationError, 'not orthonormal'),
    (lambda m: place(m, {'tip': np.full((4, 4), np.nan)}), ConfigurationError, 'NaN'),
    (lambda m: place(m, {'tip': 'eye'}), ConfigurationError, 'numbers'),
    (lambda m: place(m, world_T_root=np.eye(4), world='base'), URDFError,
     "cannot add link 'base'"),
    (lambda m: place(m, {'tip': np.eye(4)}, tool_names={'tip': 'a'}), URDFError,
     "cannot add link 'a'"),
    (lambda m: place(m, {'tip': np.eye(4)}, tool_names={'tip': ''}), URDFError,
     'a name of 1 to'),
    (lambda m: place(m, {'tip': np.eye(4)}, tool_names={'e': 'x'}), ConfigurationError,
     "'e', which has no tool"),
])
def test_bad_tools_and_worlds_are_refused(original, call, error, fragment):
    with pytest.raises(error, match=fragment):
        call(original)


class _Unreadable(dict):
    """A user's mapping whose keys cannot be read."""

    def __iter__(self):
        raise RuntimeError('no keys')

    def keys(self):
        raise RuntimeError('no keys')


@pytest.mark.parametrize('argument, rule', [
    ('tools', r'^tools must be None, a mapping \{tip link: tip_T_tool\} or its \(key, value\) '
              'pairs, got '),
    ('tool_names', r'^tool_names must be None, a mapping \{tip link: tool link name\} or its '
                   r'\(key, value\) pairs, got '),
])
@pytest.mark.parametrize('value', ['abc', b'ab', True, 0, [('tip',)], np.eye(4)])
def test_tools_or_tool_names_not_a_mapping_are_refused_by_name(original, argument, rule, value):
    given = {'tools': {'tip': np.eye(4)}, argument: value}
    with pytest.raises(ConfigurationError, match=rule):
        place(original, **given)


def test_a_mapping_whose_items_cannot_be_read_is_refused(original):
    with pytest.raises(ConfigurationError, match='^tools must be None, a mapping .* got '
                                                 '_Unreadable'):
        place(original, _Unreadable(tip=np.eye(4)))


def test_none_and_empty_mappings_add_no_tool(original):
    for tools in (None, {}, []):
        assert place(original, tools, tool_names={}).link_names == original.link_names


def test_tools_given_as_pairs_are_read_as_a_mapping(original):
    pairs = place(original, [('tip', np.eye(4))], tool_names=[('tip', 'probe')])
    assert pairs.link_names == place(original, {'tip': np.eye(4)},
                                     tool_names={'tip': 'probe'}).link_names


def test_a_taken_joint_name_is_refused():
    model = Robot.from_urdf_string(urdf(link_xml('base') + link_xml('tip') + joint_xml(
        'tip_tool_joint', 'revolute', 'base', 'tip')), backend='numpy')
    with pytest.raises(URDFError, match="cannot add joint 'tip_tool_joint'"):
        place(model, {'tip': np.eye(4)})
