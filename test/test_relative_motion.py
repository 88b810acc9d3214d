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
"""Tests of the relative-motion matrix (frame_kinematics.core.relative_motion)."""

import itertools

from conftest import bundled, HostileName, real_robot_path, REAL_ROBOTS
from frame_kinematics.core import ConfigurationError, Robot, UnknownFrameError
from frame_kinematics.core.joints import JointType
from frame_kinematics.core.relative_motion import (ENVIRONMENT, RelativeMotion,
                                                   RelativeMotionError, RelativeMotionType)
from hypothesis import given, HealthCheck, settings, strategies as st
import numpy as np
import pytest

C = RelativeMotionType.CONSTRAINED
P = RelativeMotionType.PARAMETERIZED
U = RelativeMotionType.UNCONSTRAINED


def make_urdf(joints, name='test_robot'):
    """Build a URDF from ``(name, type, parent, child[, (master, multiplier)])`` tuples."""
    links = []
    for joint in joints:
        for link in joint[2:4]:
            if link not in links:
                links.append(link)
    lines = [f'<robot name="{name}">'] + [f'<link name="{link}"/>' for link in links]
    for joint in joints:
        jname, jtype, parent, child = joint[:4]
        lines.append(f'<joint name="{jname}" type="{jtype}"><parent link="{parent}"/>'
                     f'<child link="{child}"/><origin xyz="0.1 0 0.2" rpy="0 0.3 0"/>'
                     '<axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/>')
        if len(joint) > 4:
            master, multiplier = joint[4]
            lines.append(f'<mimic joint="{master}" multiplier="{multiplier}" offset="0.1"/>')
        lines.append('</joint>')
    lines.append('</robot>')
    return '\n'.join(lines)


def chain_model(n=4):
    """Build the chain base -j1- l1 -j2- l2 ... -jn- ln, all revolute."""
    return Robot.from_urdf_string(make_urdf(
        [(f'j{k}', 'revolute', 'base' if k == 1 else f'l{k - 1}', f'l{k}')
         for k in range(1, n + 1)]))


def tree_model():
    """Two revolute branches a1-a2 and b1-b2 on a base."""
    return Robot.from_urdf_string(make_urdf([
        ('a1', 'revolute', 'base', 'la1'), ('a2', 'revolute', 'la1', 'la2'),
        ('b1', 'revolute', 'base', 'lb1'), ('b2', 'revolute', 'lb1', 'lb2')]))


def values(motion, names):
    """Return the matrix restricted to ``names`` (None for the environment)."""
    return np.array([[motion.value(a, b) for b in names] for a in names])


# -- construction and indexing --------------------------------------------------------------
def test_fresh_matrix_without_fixed_joints():
    model = chain_model(4)
    motion = RelativeMotion(model)
    assert motion.size == 5
    assert motion.index_names == (ENVIRONMENT, 'j1', 'j2', 'j3', 'j4')
    expected = np.full((5, 5), U)
    np.fill_diagonal(expected, C)
    np.testing.assert_array_equal(motion.matrix, expected)
    assert motion.rigid_groups() == [(ENVIRONMENT,), ('j1',), ('j2',), ('j3',), ('j4',)]


def test_index_of_joints_links_and_environment():
    model = bundled('fk_arm')
    motion = RelativeMotion(model)
    assert motion.size == len(model.joints) + 1
    for k, joint in enumerate(model.joints):
        assert motion.index(joint.name) == k + 1
        assert motion.index(joint.child) == k + 1
    assert motion.index(model.root_link) == 0
    assert motion.index(None) == 0
    assert motion.index(ENVIRONMENT) == 0
    np.testing.assert_array_equal(motion.parent_index[1:], [
        motion.index(joint.parent) for joint in model.joints])


def test_fixed_joints_are_constrained_to_their_parent():
    model = bundled('fk_arm')
    motion = RelativeMotion(model)
    rigid = ('wrist_3_joint', 'flange_fixed_joint', 'gripper_mount_joint', 'tool0_fixed_joint')
    assert rigid in motion.rigid_groups()
    assert motion.value('tool0', 'wrist_3_link') == C
    assert motion.value('tool0', 'flange') == C
    assert motion.value('tool0', 'wrist_2_link') == U
    assert motion.value('right_finger_link', 'gripper_base_link') == U
    assert motion.value('right_finger_link', 'left_finger_link') == U
    assert motion.value('base_link') == C
    assert len(motion.rigid_groups()) == len(model.joints) + 1 - 3


def test_fixed_joint_on_the_root_is_the_environment():
    model = Robot.from_urdf_string(make_urdf([
        ('mount', 'fixed', 'world', 'base'), ('j1', 'revolute', 'base', 'l1'),
        ('j2', 'revolute', 'l1', 'l2')]))
    motion = RelativeMotion(model)
    assert motion.value('base') == C
    assert motion.value('mount', 'world') == C
    assert motion.value('l1') == U
    assert motion.rigid_groups()[0] == (ENVIRONMENT, 'mount')


# -- hand-worked examples -------------------------------------------------------------------
def test_chain_locked_joints():
    motion = RelativeMotion(chain_model(4))
    motion.add_locked_joint('j2')
    names = [None, 'j1', 'j2', 'j3', 'j4']
    expected = np.array([[C, U, U, U, U],
                         [U, C, C, U, U],
                         [U, C, C, U, U],
                         [U, U, U, C, U],
                         [U, U, U, U, C]])
    np.testing.assert_array_equal(values(motion, names), expected)
    motion.add_locked_joint('j3', parameterized=True)
    expected = np.array([[C, U, U, U, U],
                         [U, C, C, P, U],
                         [U, C, C, P, U],
                         [U, P, P, C, U],
                         [U, U, U, U, C]])
    np.testing.assert_array_equal(values(motion, names), expected)
    np.testing.assert_array_equal(motion.matrix, expected)
    motion.add_locked_joint('j1')
    assert motion.value(None, 'l3') == P
    assert motion.value(None, 'l2') == C
    assert motion.value('base', 'l4') == U
    assert motion.rigid_groups() == [(ENVIRONMENT, 'j1', 'j2', 'j3'), ('j4',)]
    assert motion.rigid_groups(include_parameterized=False) == [
        (ENVIRONMENT, 'j1', 'j2'), ('j3',), ('j4',)]


def test_tree_transformation_between_branches():
    motion = RelativeMotion(tree_model())
    motion.add_relative_transformation('la2', 'lb2')
    names = [None, 'a1', 'a2', 'b1', 'b2']
    expected = np.full((5, 5), U)
    np.fill_diagonal(expected, C)
    expected[2, 4] = expected[4, 2] = C
    np.testing.assert_array_equal(values(motion, names), expected)
    motion.add_locked_joint('b2', parameterized=True)
    assert motion.value('a2', 'b1') == P
    assert motion.value('a2', 'b2') == C
    assert motion.value('a1', 'b1') == U
    motion.add_locked_joint('b1')
    assert motion.value('a2', None) == P
    assert motion.value('b1', None) == C
    assert motion.value('a1', None) == U


def test_closed_loop_from_two_relative_transformations():
    motion = RelativeMotion(tree_model())
    motion.add_relative_transformation('la2', 'lb2')
    motion.add_relative_transformation('la1', 'lb1', parameterized=True)
    names = [None, 'a1', 'a2', 'b1', 'b2']
    expected = np.array([[C, U, U, U, U],
                         [U, C, U, P, U],
                         [U, U, C, U, C],
                         [U, P, U, C, U],
                         [U, U, C, U, C]])
    np.testing.assert_array_equal(values(motion, names), expected)
    motion.add_relative_transformation('la2', None, parameterized=True)
    assert motion.value(None, 'lb2') == P
    assert motion.value(None, 'la2') == P
    assert motion.value(None, 'la1') == U
    motion.add_relative_transformation(None, 'lb2')
    assert motion.value(None, 'la2') == C
    assert motion.value(None, 'lb2') == C
    assert motion.value('la1', 'lb1') == P
    assert motion.rigid_groups() == [(ENVIRONMENT, 'a2', 'b2'), ('a1', 'b1')]


def test_locked_joints_mixed_with_parameterized_transformations():
    motion = RelativeMotion(chain_model(4))
    motion.add_locked_joint('j1')
    motion.add_relative_transformation('l3', None, parameterized=True)
    motion.add_locked_joint('j4')
    names = [None, 'j1', 'j2', 'j3', 'j4']
    expected = np.array([[C, C, U, P, P],
                         [C, C, U, P, P],
                         [U, U, C, U, U],
                         [P, P, U, C, C],
                         [P, P, U, C, C]])
    np.testing.assert_array_equal(values(motion, names), expected)
    motion.add_locked_joint('j3', parameterized=True)
    assert motion.value('l2') == P
    motion.add_relative_transformation('l2', 'base')
    assert motion.value('l2') == C
    assert motion.value('l4') == P
    assert motion.value('l2', 'l4') == P


def test_environment_of_a_floating_base_robot():
    model = Robot.from_urdf_string(make_urdf([
        ('j1', 'revolute', 'base', 'l1'), ('tip', 'fixed', 'l1', 'tool')]),
        floating_base=True)
    motion = RelativeMotion(model)
    assert motion.index('world') == 0
    assert motion.index('base') == motion.index('root_joint') == 1
    assert motion.value('base') == U
    motion.add_locked_joint('root_joint', parameterized=True)
    assert motion.value('base') == P
    assert motion.value('tool') == U
    motion.add_relative_transformation('tool', 'world')
    assert motion.value('tool') == C
    assert motion.value('base', 'tool') == P
    assert motion.value('base') == P


def test_lower_dimension_constraint_leaves_the_pair_unconstrained(core_log):
    motion = RelativeMotion(chain_model(3))
    before = motion.matrix
    log = core_log('frame_kinematics.core.relative_motion')
    motion.add_relative_transformation('l3', None, mask=[True] * 5 + [False])
    motion.add_relative_transformation('l1', 'l3', mask=np.zeros(6, dtype=bool))
    np.testing.assert_array_equal(motion.matrix, before)
    assert 'l3' in log.text and '5 of 6' in log.text
    motion.add_relative_transformation('l3', None, mask=[1] * 6)
    assert motion.value('l3') == C


def test_unconstrained_update_does_nothing_and_values_never_weaken():
    motion = RelativeMotion(chain_model(3))
    motion.set_relative_motion('j1', 'j3', U)
    assert motion.value('j1', 'j3') == U
    motion.set_relative_motion('j1', 'j3', C)
    motion.set_relative_motion('j1', 'j3', P)
    motion.add_locked_joint('j1', parameterized=True)
    assert motion.value('j1', 'j3') == C
    assert motion.value('j3') == P
    motion.add_locked_joint('j3')
    assert motion.value('j2', 'j1') == C
    assert motion.value('j2') == P
    motion.add_locked_joint('j1')
    assert np.all(motion.matrix == C)


def test_combination_rules():
    table = {(C, C): C, (C, P): P, (P, C): P, (P, P): P}
    for a, b in itertools.product(RelativeMotionType, repeat=2):
        assert a.combine(b) == table.get((a, b), U)
    assert [int(m) for m in RelativeMotionType] == [0, 1, 2]


# -- mimic joints ---------------------------------------------------------------------------
def test_locking_the_master_locks_its_mimic():
    model = bundled('fk_arm')
    motion = RelativeMotion(model)
    motion.add_locked_joint('left_finger_joint', parameterized=True)
    assert motion.value('right_finger_link', 'gripper_base_link') == P
    assert motion.value('left_finger_link', 'right_finger_link') == P
    assert motion.value('right_finger_link', 'tool0') == P
    motion.add_locked_joint('left_finger_joint')
    assert motion.value('right_finger_link', 'tool0') == C


def test_rigid_mimic_fixes_its_master():
    model = bundled('fk_arm')
    motion = RelativeMotion(model)
    motion.add_relative_transformation('right_finger_link', 'tool0', parameterized=True)
    assert motion.value('left_finger_link', 'gripper_base_link') == P
    other = RelativeMotion(model)
    other.add_locked_joint('right_finger_joint')
    assert other.value('left_finger_link', 'flange') == C
    assert other.value('left_finger_link') == U


def test_mimic_with_zero_multiplier_is_fixed_and_mimic_chains_resolve():
    model = Robot.from_urdf_string(make_urdf([
        ('j1', 'revolute', 'base', 'l1'), ('m0', 'revolute', 'base', 'l2', ('j1', 0.0)),
        ('m1', 'prismatic', 'l1', 'l3', ('j1', 2.0)), ('m2', 'revolute', 'l3', 'l4', ('m1', -1)),
    ]))
    motion = RelativeMotion(model)
    assert motion.value('l2') == C
    assert motion.value('l3', 'l1') == U
    motion.add_relative_transformation('l4', 'l3', parameterized=True)
    assert motion.value('l1') == P
    assert motion.value('l3', 'l1') == P
    assert motion.value('l4') == P


# -- errors ---------------------------------------------------------------------------------
def test_unknown_names_raise_and_change_nothing():
    motion = RelativeMotion(chain_model(3))
    before = motion.matrix
    with pytest.raises(UnknownFrameError, match="'nope'"):
        motion.add_locked_joint('nope')
    with pytest.raises(UnknownFrameError, match="joint 'l1'"):
        motion.add_locked_joint('l1')
    with pytest.raises(UnknownFrameError, match="'elbow'"):
        motion.add_relative_transformation('l1', 'elbow')
    with pytest.raises(UnknownFrameError, match="'elbow'"):
        motion.value('elbow')
    with pytest.raises(UnknownFrameError, match="'elbow'"):
        motion.set_relative_motion('elbow', None, C)
    np.testing.assert_array_equal(motion.matrix, before)


@pytest.mark.parametrize('pair', [('j2', 'j2'), ('l2', 'j2'), ('l2', 'l2'), ('base', None),
                                  (None, None), (ENVIRONMENT, 'base')])
def test_constraint_between_a_body_and_itself_raises(pair):
    motion = RelativeMotion(chain_model(3))
    before = motion.matrix
    with pytest.raises(RelativeMotionError, match='itself'):
        motion.add_relative_transformation(*pair)
    with pytest.raises(RelativeMotionError, match='itself'):
        motion.set_relative_motion(*pair, P)
    with pytest.raises(ValueError):
        motion.add_relative_transformation(*pair, parameterized=True)
    np.testing.assert_array_equal(motion.matrix, before)


def test_invalid_mask_and_motion_type_raise():
    motion = RelativeMotion(chain_model(3))
    before = motion.matrix
    for mask in ([True] * 5, [[True] * 6], ['x'] * 6, [1, 1, 1, 1, 1, 0.5]):
        with pytest.raises(ConfigurationError, match="'l3'"):
            motion.add_relative_transformation('l3', None, mask=mask)
    with pytest.raises(RelativeMotionError, match='RelativeMotionType'):
        motion.set_relative_motion('l3', None, 3)
    np.testing.assert_array_equal(motion.matrix, before)


def test_name_of_a_joint_and_of_another_link_is_ambiguous():
    model = Robot.from_urdf_string(make_urdf([
        ('j1', 'revolute', 'base', 'l1'), ('l1', 'revolute', 'l1', 'l2')]))
    motion = RelativeMotion(model)
    with pytest.raises(RelativeMotionError, match="'l1'.*both"):
        motion.index('l1')
    motion.add_locked_joint('l1')
    assert motion.value('j1', 'l2') == C
    assert motion.value('j1') == U


def test_a_body_named_like_the_environment_is_ambiguous():
    model = Robot.from_urdf_string(make_urdf([
        ('&lt;environment&gt;', 'revolute', 'base', 'l1'), ('j2', 'revolute', 'l1', 'l2')]))
    motion = RelativeMotion(model)
    before = motion.matrix
    with pytest.raises(RelativeMotionError, match='names both the environment and a body'):
        motion.index(ENVIRONMENT)
    with pytest.raises(RelativeMotionError, match='names both the environment and a body'):
        motion.add_relative_transformation('l2', ENVIRONMENT)
    np.testing.assert_array_equal(motion.matrix, before)
    motion.add_locked_joint(ENVIRONMENT)
    assert motion.index(None) == 0 and motion.index('l1') == 1
    assert motion.value('l1') == C and motion.value('l2', None) == U


def test_copy_is_independent():
    motion = RelativeMotion(chain_model(3))
    motion.add_locked_joint('j1')
    other = motion.copy()
    other.add_locked_joint('j2')
    assert motion.value('l2') == U
    assert other.value('l2') == C
    assert 'C' in str(other) and 'j3' in str(other)


# -- real robots ----------------------------------------------------------------------------
@pytest.mark.parametrize('name', ['panda', 'talos'])
def test_locking_every_actuated_joint_makes_the_robot_rigid(name):
    pytest.importorskip('pinocchio')
    model = Robot.from_urdf_file(real_robot_path(name), floating_base=REAL_ROBOTS[name][1])
    motion = RelativeMotion(model)
    rng = np.random.default_rng(3)
    parameterized = rng.random(len(model.joint_names)) < 0.3
    for joint, flag in zip(model.joint_names, parameterized):
        motion.add_locked_joint(joint, parameterized=bool(flag))
    assert len(motion.rigid_groups()) == 1
    loose = {joint for joint, flag in zip(model.joint_names, parameterized) if flag}
    loose |= {joint.name for joint in model.mimic_joints if joint.mimic[0] in loose}
    assert len(motion.rigid_groups(False)) == 1 + len(loose)
    assert np.all(motion.matrix <= P)


# -- properties -----------------------------------------------------------------------------
JOINT_TYPES = ('revolute', 'prismatic', 'continuous', 'fixed', 'floating', 'planar')


@st.composite
def models(draw):
    """
    Draw a random tree of 1 to 9 joints with fixed, multi-dof and mimic joints.

    The first joint is a 1-dof joint: the core cannot build a model with no degree of freedom.
    """
    count = draw(st.integers(1, 9))
    joints, one_dof = [], []
    for k in range(count):
        parent = draw(st.integers(0, k))
        jtype = draw(st.sampled_from(JOINT_TYPES[:3] if k == 0 else JOINT_TYPES))
        joint = (f'j{k}', jtype, f'l{parent}', f'l{k + 1}')
        if jtype in ('revolute', 'prismatic') and one_dof and draw(st.booleans()):
            joint += ((draw(st.sampled_from(one_dof)), draw(st.sampled_from((1.5, -1, 0)))),)
        if jtype in ('revolute', 'prismatic', 'continuous'):
            one_dof.append(joint[0])
        joints.append(joint)
    return Robot.from_urdf_string(make_urdf(joints))


@st.composite
def problems(draw):
    """Draw a model and a list of constraints ``(kind, body_a, body_b, parameterized, full)``."""
    model = draw(models())
    bodies = [None] + [j.name for j in model.joints] + list(model.link_names)
    motion = RelativeMotion(model)
    constraints = []
    for _ in range(draw(st.integers(0, 8))):
        if draw(st.booleans()):
            constraints.append(('lock', draw(st.sampled_from([j.name for j in model.joints])),
                                None, draw(st.booleans()), True))
            continue
        body_a, body_b = draw(st.sampled_from(bodies)), draw(st.sampled_from(bodies))
        if motion.index(body_a) != motion.index(body_b):
            constraints.append(('transform', body_a, body_b, draw(st.booleans()),
                                draw(st.sampled_from((True, True, False)))))
    return model, constraints


def apply(model, constraints):
    motion = RelativeMotion(model)
    for kind, body_a, body_b, parameterized, full in constraints:
        if kind == 'lock':
            motion.add_locked_joint(body_a, parameterized)
        else:
            motion.add_relative_transformation(body_a, body_b, parameterized,
                                               None if full else [True] * 5 + [False])
    return motion


def brute_force(model, constraints):
    """Closure by connected components per threshold, mimic couplings iterated to a fixpoint."""
    size = len(model.joints) + 1
    index = {j.name: k + 1 for k, j in enumerate(model.joints)}
    index.update({link.name: index.get(link.parent_joint, 0) for link in model.links})
    index[None] = 0
    parent = {k + 1: index[j.parent] for k, j in enumerate(model.joints)}
    edges, couplings = [], []
    for k, joint in enumerate(model.joints):
        if joint.type is JointType.FIXED or (joint.mimic and joint.mimic[1] == 0):
            edges.append((k + 1, parent[k + 1], C))
        elif joint.mimic:
            master = index[joint.mimic[0]]
            couplings.append(((k + 1, parent[k + 1]), (master, parent[master])))
    for kind, body_a, body_b, parameterized, full in constraints:
        pair = (index[body_a], parent[index[body_a]]) if kind == 'lock' else (
            index[body_a], index[body_b])
        if full:
            edges.append(pair + (P if parameterized else C,))
    result = np.full((size, size), U)
    for level in (P, C):
        label = list(range(size))

        def find(i):
            while label[i] != i:
                i = label[i]
            return i

        for i, j, weight in edges:
            if weight <= level:
                label[find(i)] = find(j)
        changed = True
        while changed:
            changed = False
            for (a, pa), (b, pb) in couplings:
                if (find(a) == find(pa)) != (find(b) == find(pb)):
                    label[find(a)] = find(pa)
                    label[find(b)] = find(pb)
                    changed = True
        roots = np.array([find(i) for i in range(size)])
        result[roots[:, None] == roots[None, :]] = level
    return result


PROPERTY_SETTINGS = settings(max_examples=150, deadline=None,
                             suppress_health_check=[HealthCheck.too_slow])


@PROPERTY_SETTINGS
@given(problems())
def test_matrix_agrees_with_brute_force_closure(problem):
    model, constraints = problem
    matrix = apply(model, constraints).matrix
    np.testing.assert_array_equal(matrix, brute_force(model, constraints))
    np.testing.assert_array_equal(matrix, matrix.T)
    assert np.all(np.diag(matrix) == C)


@PROPERTY_SETTINGS
@given(problems(), st.randoms(use_true_random=False))
def test_order_independence_and_monotonicity(problem, random):
    model, constraints = problem
    shuffled = list(constraints)
    random.shuffle(shuffled)
    np.testing.assert_array_equal(apply(model, constraints).matrix,
                                  apply(model, shuffled).matrix)
    motion = RelativeMotion(model)
    previous = motion.matrix
    for count in range(1, len(shuffled) + 1):
        current = apply(model, shuffled[:count]).matrix
        assert np.all(current <= previous)
        previous = current


@PROPERTY_SETTINGS
@given(problems())
def test_groups_partition_the_indices(problem):
    model, constraints = problem
    motion = apply(model, constraints)
    matrix = motion.matrix
    for include, limit in ((True, P), (False, C)):
        groups = motion.rigid_groups(include)
        flat = [name for group in groups for name in group]
        assert sorted(flat, key=motion.index_names.index) == list(motion.index_names)
        for group in groups:
            indices = [motion.index_names.index(name) for name in group]
            assert np.all(matrix[np.ix_(indices, indices)] <= limit)
        firsts = [motion.index_names.index(group[0]) for group in groups]
        assert np.all(matrix[np.ix_(firsts, firsts)][~np.eye(len(firsts), dtype=bool)] > limit)


@pytest.mark.parametrize('bad', [['l1'], ('l1',), {'l1': 1}, np.array(['l1', 'l2']), 3, b'l1'],
                         ids=['list', 'tuple', 'dict', 'array', 'int', 'bytes'])
def test_a_body_that_is_not_a_name_gets_the_librarys_error(bad):
    motion = RelativeMotion(chain_model(3))
    before = motion.matrix
    for call in (lambda: motion.index(bad), lambda: motion.value(bad),
                 lambda: motion.value('l1', bad), lambda: motion.add_locked_joint(bad),
                 lambda: motion.add_relative_transformation(bad, 'l2'),
                 lambda: motion.add_relative_transformation('l2', bad),
                 lambda: motion.set_relative_motion(bad, None, C)):
        with pytest.raises(RelativeMotionError, match=type(bad).__name__):
            call()
    np.testing.assert_array_equal(motion.matrix, before)


def test_flags_and_motion_types_must_be_what_they_say():
    motion = RelativeMotion(chain_model(3))
    before = motion.matrix
    for bad in (np.array([1, 0]), 1, 'yes', None):
        with pytest.raises(ConfigurationError, match='parameterized must be True or False'):
            motion.add_locked_joint('j1', parameterized=bad)
        with pytest.raises(ConfigurationError, match='parameterized must be True or False'):
            motion.add_relative_transformation('l1', 'l3', parameterized=bad)
        with pytest.raises(ConfigurationError, match='include_parameterized'):
            motion.rigid_groups(include_parameterized=bad)
    with pytest.raises(ConfigurationError, match='six booleans'):
        motion.add_relative_transformation('l1', None, mask=np.ma.array([1] * 6, mask=[1] * 6))
    for bad in ('x', 'C', True, np.array([0, 1]), [0], -1, 2.5, None):
        with pytest.raises(RelativeMotionError, match='RelativeMotionType'):
            C.combine(bad)
        with pytest.raises(RelativeMotionError, match='RelativeMotionType'):
            motion.set_relative_motion('l1', 'l3', bad)
    np.testing.assert_array_equal(motion.matrix, before)
    assert C.combine(np.int8(1)) is P and P.combine(U) is U
    motion.add_locked_joint('j1', parameterized=np.bool_(True))
    assert motion.value('l1') is P


def test_a_name_whose_hash_and_equality_fail_is_read_as_a_plain_str():
    plain, motion = RelativeMotion(chain_model(3)), RelativeMotion(chain_model(3))
    assert motion.index(HostileName('l2')) == plain.index('l2')
    motion.add_locked_joint(HostileName('j1'))
    motion.add_relative_transformation(HostileName('l1'), HostileName('l3'))
    plain.add_locked_joint('j1')
    plain.add_relative_transformation('l1', 'l3')
    np.testing.assert_array_equal(motion.matrix, plain.matrix)
    assert motion.value(HostileName('l1'), 'l3') is plain.value('l1', 'l3')


@pytest.mark.parametrize('model', [None, 'fk_arm', 3, object()])
def test_a_relative_motion_is_of_a_model(model):
    with pytest.raises(ConfigurationError, match='model must be a RobotModel or a Robot, got'):
        RelativeMotion(model)


def test_labels_of_a_name_whose_equality_fails_are_made_from_a_plain_str(core_log):
    motion, plain = RelativeMotion(chain_model(3)), RelativeMotion(chain_model(3))
    log = core_log('frame_kinematics.core.relative_motion')
    motion.add_relative_transformation(HostileName('l1'), None, mask=[1, 1, 1, 0, 0, 0])
    assert "'l1' (body of joint 'j1') and the environment constrains 3 of 6" in log.text
    plain.add_relative_transformation('l1', None, mask=[1, 1, 1, 0, 0, 0])
    np.testing.assert_array_equal(motion.matrix, plain.matrix)
    with pytest.raises(RelativeMotionError, match="'l1' .body of joint 'j1'. and 'j1'"):
        motion.add_relative_transformation(HostileName('l1'), 'j1')
    with pytest.raises(RelativeMotionError, match="'base' .environment. and the environment"):
        motion.add_relative_transformation(HostileName('base'), None)
    with pytest.raises(ConfigurationError, match="between 'l1' .body of joint 'j1'."):
        motion.add_relative_transformation(HostileName('l1'), None, mask=[2] * 6)
    with pytest.raises(RelativeMotionError, match="between 'j2' and the environment"):
        motion.set_relative_motion(HostileName('j2'), None, 7)
    np.testing.assert_array_equal(motion.matrix, plain.matrix)
