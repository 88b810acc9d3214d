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
"""Tests of frame_kinematics.core.frames: the reference-frame tree and its frames."""

from conftest import bundled, HostileName, joint_xml, link_xml, random_configuration, urdf
from frame_kinematics.core import ConfigurationError, ReferenceFrameError, Robot, \
    UnknownFrameError
from frame_kinematics.core.frames import FrameKind, FrameTree
from frame_kinematics.core.spatial import quaternion_from_rotation, rotation_from_rpy, \
    transform_from_xyz_rpy
from frames_testing import tree_fixture
import numpy as np
import pytest

tree = tree_fixture()


def test_frames_of_every_kind(tree):
    model = tree.model
    assert tree.world.name == 'base_link' and tree.world.kind is FrameKind.WORLD
    assert tree.frame('shoulder_link').kind is FrameKind.BODY
    assert tree.frame('tool0').kind is FrameKind.FIXED and tree.frame('tool0').is_static
    assert not tree.frame('forearm_link').is_static
    com_frames = [f.name for f in tree.frames(FrameKind.COM)]
    assert com_frames == [f'{link.name}_com' for link in model.links if link.mass > 0]
    assert 'flange_com' not in tree
    assert tree.frame('com').kind is FrameKind.ROBOT_COM
    np.testing.assert_allclose(tree.transform('upper_arm_link', 'upper_arm_link_com')[:3, 3],
                               model.link('upper_arm_link').link_p_com)


def test_transforms_follow_the_configuration_without_stale_reads(tree):
    model = tree.model
    rng = np.random.default_rng(1)
    for _ in range(3):
        q = random_configuration(model, rng)
        cached = tree.transform('base_link', 'tool0')
        tree.update(q)
        state = model.forward_kinematics(q)
        np.testing.assert_allclose(tree.transform('base_link', 'tool0'),
                                   state.transform('tool0'), atol=1e-15)
        assert not np.allclose(cached, state.transform('tool0'))
        np.testing.assert_allclose(tree.transform('forearm_link', 'tool0'),
                                   state.relative_transform('forearm_link', 'tool0'),
                                   atol=1e-14)
        np.testing.assert_allclose(tree.transform('base_link', 'com')[:3, 3],
                                   state.center_of_mass(), atol=1e-15)
        np.testing.assert_allclose(tree.frame('wrist_2_link').parent_T_frame,
                                   state.relative_transform('wrist_1_link', 'wrist_2_link'),
                                   atol=1e-14)


def test_failed_update_changes_nothing(tree):
    before = tree.transform('base_link', 'tool0').copy()
    revision = tree.revision
    with pytest.raises(ConfigurationError):
        tree.update([np.nan] * 7)
    assert tree.revision == revision
    np.testing.assert_array_equal(tree.transform('base_link', 'tool0'), before)


def test_user_frames_and_baked_frames(tree):
    offset = transform_from_xyz_rpy([0.1, 0.0, 0.05], [0.0, 0.3, 0.0])
    live = tree.add_frame('camera', 'tool0', offset)
    baked = tree.add_frame('camera_baked', 'tool0', offset, baked=True)
    assert live.is_static and live.parent.name == 'tool0'
    assert baked.baked and baked.parent is tree.world
    placed = tree.transform('base_link', 'camera').copy()
    np.testing.assert_allclose(tree.transform('base_link', 'camera_baked'), placed, atol=1e-15)
    tree.update(np.zeros(7))
    np.testing.assert_allclose(tree.transform('tool0', 'camera'), offset, atol=1e-14)
    # The baked frame stayed where it was placed; the live one followed tool0.
    np.testing.assert_allclose(tree.transform('base_link', 'camera_baked'), placed, atol=1e-15)
    assert not np.allclose(tree.transform('base_link', 'camera'), placed)
    nested = tree.add_frame('lens', 'camera', transform_from_xyz_rpy([0, 0, 0.02], [0, 0, 0]))
    np.testing.assert_allclose(nested.pose_in(tree.frame('tool0')),
                               offset @ transform_from_xyz_rpy([0, 0, 0.02], [0, 0, 0]))
    with pytest.raises(ReferenceFrameError, match='still has children: lens'):
        tree.remove_frame('camera')
    tree.remove_frame('lens')
    tree.remove_frame('camera')
    assert 'camera' not in tree


def test_frame_errors_name_the_frames(tree):
    with pytest.raises(UnknownFrameError, match="unknown frame 'nowhere'") as info:
        tree.transform('base_link', 'nowhere')
    assert 'tool0' in info.value.available
    # Unknown frames are reference-frame errors too, and name both frames.
    with pytest.raises(ReferenceFrameError,
                       match="cannot relate 'nowhere' and 'tool0'|cannot relate 'tool0' and "
                             "'nowhere'") as info:
        tree.transform('nowhere', 'tool0')
    assert {info.value.frame_a, info.value.frame_b} == {'nowhere', 'tool0'}
    with pytest.raises(ReferenceFrameError, match="unknown frame 'ghost'"):
        tree.frame('ghost')
    with pytest.raises(ReferenceFrameError, match='already exists'):
        tree.add_frame('tool0', 'base_link', np.eye(4))
    with pytest.raises(ConfigurationError, match="offset of frame 'bad'"):
        tree.add_frame('bad', 'base_link', np.full((4, 4), 2.0))
    with pytest.raises(ReferenceFrameError, match='belongs to the model'):
        tree.remove_frame('tool0')
    other = tree.add_root_frame('map')
    tree.add_frame('dock', other, transform_from_xyz_rpy([1, 0, 0], [0, 0, 0]))
    np.testing.assert_allclose(tree.transform('map', 'dock')[:3, 3], [1, 0, 0])
    with pytest.raises(ReferenceFrameError, match="'tool0' and 'dock' have different roots") \
            as err:
        tree.transform('tool0', 'dock')
    assert (err.value.frame_a, err.value.frame_b) == ('tool0', 'dock')


def test_a_frame_given_as_anything_but_a_name_gets_the_librarys_error(tree):
    for bad in (['tool0'], {'tool0': 1}, b'tool0', None, 3):
        with pytest.raises(ReferenceFrameError, match=type(bad).__name__):
            tree.frame(bad)
        with pytest.raises(ReferenceFrameError, match=type(bad).__name__):
            tree.transform('base_link', bad)
        assert bad not in tree
        with pytest.raises(ReferenceFrameError, match='must be a string'):
            tree.add_frame(bad, 'base_link', np.eye(4))
        with pytest.raises(ReferenceFrameError, match='must be a string'):
            tree.add_root_frame(bad)


def test_com_frame_orientation_modes():
    model = bundled('fk_quadruped', floating_base=True)
    q = model.neutral_configuration()
    q[3:7] = quaternion_from_rotation(rotation_from_rpy([0.2, -0.1, 0.7]))
    tree = FrameTree(model, q)
    np.testing.assert_allclose(tree.transform('world', 'com')[:3, :3], np.eye(3))
    tree.set_com_orientation('yaw')
    np.testing.assert_allclose(tree.transform('world', 'com')[:3, :3],
                               rotation_from_rpy([0, 0, 0.7]), atol=1e-14)
    tree.set_com_orientation('ypr', ypr=[0.5, 0.1, -0.2])
    np.testing.assert_allclose(tree.transform('world', 'com')[:3, :3],
                               rotation_from_rpy([-0.2, 0.1, 0.5]), atol=1e-14)
    tree.set_com_orientation('quaternion', quaternion=[0, 0, np.sin(0.2), np.cos(0.2)])
    np.testing.assert_allclose(tree.transform('world', 'com')[:3, :3],
                               rotation_from_rpy([0, 0, 0.4]), atol=1e-14)
    np.testing.assert_allclose(tree.transform('world', 'com')[:3, 3],
                               tree.state.center_of_mass())
    with pytest.raises(ReferenceFrameError, match='unit quaternion'):
        tree.set_com_orientation('quaternion', quaternion=[0, 0, 0, 2])
    with pytest.raises(ReferenceFrameError, match="unknown CoM orientation mode 'tilt'"):
        tree.set_com_orientation('tilt')
    with pytest.raises(ReferenceFrameError, match="'base_link' is already a frame"):
        FrameTree(model, com_frame='base_link')


def test_links_whose_com_frame_name_is_a_link_get_none_and_one_warning(core_log):
    log = core_log('frame_kinematics.core.frames')
    body = ''.join(link_xml(n, mass=1.0) for n in ('a', 'a_com', 'b', 'b_com')) + \
        joint_xml('j1', 'revolute', 'a', 'a_com') + joint_xml('j2', 'revolute', 'a_com', 'b') + \
        joint_xml('j3', 'revolute', 'b', 'b_com')
    tree = FrameTree(Robot.from_urdf_string(urdf(body)))
    assert tree.frame('a_com').kind is tree.frame('b_com').kind is FrameKind.BODY
    assert tree.frame('a_com_com').kind is FrameKind.COM
    assert log.lines == ['no center-of-mass frame for links a, b: a link has the name <link>_com']


@pytest.mark.parametrize('com_frame', [[], None, 0, '', b'com'])
def test_com_frame_name_must_be_a_non_empty_string(com_frame):
    with pytest.raises(ReferenceFrameError, match='CoM frame name'):
        FrameTree(bundled('fk_arm'), com_frame=com_frame)


@pytest.mark.parametrize('name, words', [
    ('x' * 257, 'is longer than 256 characters'),
    ('cam\0era', 'has characters no URDF name can hold'),
    ('cam\x1bera', 'has characters no URDF name can hold')])
def test_a_user_or_com_frame_name_is_read_as_a_link_name(tree, name, words):
    with pytest.raises(ReferenceFrameError, match=words) as raised:
        tree.add_frame(name, 'tool0', np.eye(4))
    assert len(str(raised.value)) < 200  # the name is excerpted
    with pytest.raises(ReferenceFrameError, match=words):
        FrameTree(bundled('fk_arm'), com_frame=name)
    tree.add_frame('x' * 256, 'tool0', np.eye(4))  # a name as long as a link's may be


@pytest.mark.parametrize('model', [None, 'fk_arm', 3, object()])
def test_a_frame_tree_is_of_a_model_with_or_without_a_configuration(model):
    for q in (None, np.zeros(7)):
        with pytest.raises(ConfigurationError, match='model must be a RobotModel or a Robot'):
            FrameTree(model, q)


def test_add_frame_refuses_bad_offsets_and_flags_and_changes_nothing(tree):
    names = tree.frame_names
    for bad in ('abc', {'a': 1}, np.ma.array(np.eye(4)), np.eye(4) * (1 + 0j), None):
        with pytest.raises(ConfigurationError, match="offset of frame 'u'"):
            tree.add_frame('u', 'tool0', bad)
    for bad in (np.array([1, 0]), 1, 'yes', None):
        with pytest.raises(ConfigurationError, match='baked must be True or False'):
            tree.add_frame('u', 'tool0', np.eye(4), baked=bad)
    with pytest.raises(ConfigurationError, match=r'one 4x4 transform, got shape \(2, 4, 4\)'):
        tree.add_frame('u', 'tool0', np.stack([np.eye(4)] * 2))
    far = np.eye(4)
    far[:3, 3] = 1e308
    with pytest.raises(ConfigurationError, match="offset of frame 'u' has NaN or inf or a magni"):
        tree.add_frame('u', 'tool0', far)
    with pytest.raises(ReferenceFrameError, match='must not be empty'):
        tree.add_frame('', 'tool0', np.eye(4))
    assert tree.frame_names == names
    assert tree.add_frame('u', 'tool0', np.eye(4), baked=np.bool_(True)).baked


def test_a_frame_is_not_baked_from_a_batch(tree):
    names = tree.frame_names
    tree.update(np.zeros((3, tree.model.nq)))
    with pytest.raises(ConfigurationError, match="frame 'u' can only be baked from a single"):
        tree.add_frame('u', 'tool0', np.eye(4), baked=True)
    assert tree.frame_names == names
    assert tree.add_frame('u', 'tool0', np.eye(4)).root_T_frame.shape == (3, 4, 4)


def test_set_com_orientation_refuses_bad_arguments_and_changes_nothing(tree):
    revision, before = tree.revision, tree.transform('base_link', 'com')
    for call in (lambda: tree.set_com_orientation(np.array(['a', 'b'])),
                 lambda: tree.set_com_orientation(['ypr']),
                 lambda: tree.set_com_orientation('ypr', ypr='abc'),
                 lambda: tree.set_com_orientation('ypr', ypr=[np.nan, 0, 0]),
                 lambda: tree.set_com_orientation('ypr', ypr=[1 + 1j, 0, 0]),
                 lambda: tree.set_com_orientation('quaternion', quaternion=[[0, 0, 0, 1]] * 2),
                 lambda: tree.set_com_orientation('quaternion', quaternion='abc'),
                 lambda: tree.set_com_orientation('yaw', link=np.array(['tool0'])),
                 lambda: tree.set_com_orientation('yaw', link=['tool0'])):
        with pytest.raises(ReferenceFrameError, match='CoM orientation'):
            call()
    assert tree.revision == revision
    np.testing.assert_array_equal(tree.transform('base_link', 'com'), before)


def test_frames_filter_by_kind_or_its_value_and_refuse_anything_else(tree):
    for kind in FrameKind:
        assert tree.frames(kind.value) == tree.frames(kind)
    assert tree.frames('body') and tree.frames(None) == tree.frames()
    for bad in ('bodies', 'BODY', [], np.array([1, 2]), 3):
        with pytest.raises(ReferenceFrameError, match='frame kind'):
            tree.frames(bad)


def test_a_name_whose_hash_and_equality_fail_is_read_as_a_plain_str(tree):
    offset = transform_from_xyz_rpy([0, 0, 0.1], [0, 0, 0])
    camera = tree.add_frame(HostileName('camera'), HostileName('tool0'), offset)
    assert type(camera.name) is str and tree.frame(HostileName('camera')) is camera
    assert HostileName('camera') in tree
    np.testing.assert_array_equal(tree.transform(HostileName('base_link'), 'camera'),
                                  tree.transform('base_link', 'camera'))
    assert tree.frames(HostileName('user')) == [camera]
    tree.set_com_orientation(HostileName('yaw'), link=HostileName('tool0'))
    tree.update(np.zeros(tree.model.nq))  # the CoM frame reads the kept link
    assert FrameTree(tree.model, com_frame=HostileName('centre')).com_frame.name == 'centre'
    root = tree.add_root_frame(HostileName('dock'))
    tree.remove_frame(HostileName('dock'))
    assert 'dock' not in tree and root.name == 'dock'


def test_a_pose_cached_while_the_tree_moved_is_computed_again(tree, monkeypatch):
    frame = tree.frame('tool0')
    compute = tree._compute_root_T
    moved = tree.model.neutral_configuration() + 0.5

    def moving(which):  # another update lands between the computation and the caching
        pose = compute(which)
        tree.update(moved)
        return pose

    monkeypatch.setattr(tree, '_compute_root_T', moving)
    before = frame.root_T_frame.copy()
    monkeypatch.undo()
    np.testing.assert_allclose(frame.root_T_frame, tree.state.transform('tool0'), atol=1e-15)
    assert not np.allclose(frame.root_T_frame, before)
