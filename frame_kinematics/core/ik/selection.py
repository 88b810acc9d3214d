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
Which joints of a model move a set of tips, and which of them inverse kinematics solves for.

The joints on the paths from the root to the tips move the tips, and so do the masters of
the mimic joints on those paths, wherever the masters are (a finger moved only by a mimic
joint is moved by its master). The *active* joints are those the solver changes; they form
the *reduced* configuration, in model order. The joints on the paths that are neither active
nor fixed are *held*: they keep their value (a mimic whose master is not active is held at
its master's value).
"""

import logging
from typing import List, Optional, Sequence, Tuple, TYPE_CHECKING, Union

import numpy as np

from ..checks import as_names, MAX_MAGNITUDE
from ..errors import ConfigurationError, quote
from ..joints import ConfigurationLayout, frozen
from ..model import require_model

if TYPE_CHECKING:  # pragma: no cover
    from ..model import Joint, RobotModel

_LOG = logging.getLogger(__package__)

Tips = Union[str, Sequence[str]]


def as_tips(tip: Tips) -> Tuple[str, ...]:
    """
    Validate one tip link name or a list of them.

    :param tip: a name or a non-empty sequence of distinct names.
    :return: the names.
    :raises ConfigurationError: for anything else.
    """
    if isinstance(tip, str):
        return (str.__str__(tip),)  # a plain str: a subclass's __hash__ is not called
    tips = as_names(tip, 'tip must be a link name or a list of names')
    if not tips:
        raise ConfigurationError('tip must be a link name or a non-empty list of names, got '
                                 'an empty one')
    if len(set(tips)) != len(tips):
        raise ConfigurationError(f'tips are repeated: {quote(list(tips))}')
    return tips


class JointSelection:
    """
    The active and held joints of the chains from a model's root to some tips.

    :ivar model: the robot model.
    :ivar tips: the tip links.
    :ivar tip_bodies: their link indices.
    :ivar active: the active joints, in model order.
    :ivar active_joints: their names.
    :ivar layout: the layout of the reduced configuration (active joints only).
    :ivar q_index: ``(nq,)`` indices in the model's ``q`` of the reduced entries.
    :ivar v_index: ``(nv,)`` indices in the model's ``v`` of the reduced entries.
    :ivar nodes: ``(joint, reduced q, reduced v, multiplier, offset)`` of every joint on the
        paths that moves with an active joint (itself, or a mimic of one), in model order.
    :ivar held_q_index: indices in ``q`` of the held coordinates that move the tips.
    :ivar lower: ``(nq,)`` lower bounds of the reduced entries while solving: the limits, and
        no entry below ``-MAX_MAGNITUDE`` (every iterate is a configuration the model accepts).
    :ivar upper: ``(nq,)`` the upper bounds, likewise.
    """

    def __init__(self, model: 'RobotModel', tip: Tips,
                 active_joints: Optional[Sequence[str]] = None) -> None:
        """
        Select the joints.

        :param model: the robot model.
        :param tip: a tip link name or a list of them.
        :param active_joints: names of the joints allowed to move (default: every joint that
            moves the tips), a list of names or one name (a str). Joints that do not move the
            tips are left out, with a log line.
        :raises UnknownFrameError: for an unknown link or joint.
        :raises ConfigurationError: for a model that is not a
            :class:`~frame_kinematics.core.model.RobotModel`, ``active_joints`` that is not a
            name or a list of names, or a fixed or mimic joint named as active.
        """
        self.model = require_model(model)
        self.tips = as_tips(tip)
        self.tip_bodies = tuple(model.link_index(name) for name in self.tips)
        bodies = sorted({int(b) for tip in self.tip_bodies for b in model.topology.path(tip)})
        on_path = [model.joints[b - 1] for b in bodies[1:]]
        moving = {j.name for j in on_path if j.is_actuated}
        moving.update(j.mimic[0] for j in on_path if j.mimic is not None)
        chosen = self._chosen(model, moving, active_joints)
        self.active: Tuple['Joint', ...] = tuple(chosen)
        self.active_joints: Tuple[str, ...] = tuple(j.name for j in chosen)
        self.layout = ConfigurationLayout([(j.name, j.type, j.lower, j.upper) for j in chosen])
        self.q_index = frozen(np.array([i for j in chosen for i in range(j.idx_q, j.idx_q + j.nq)],
                                       dtype=np.int64))
        self.v_index = frozen(np.array([i for j in chosen for i in range(j.idx_v, j.idx_v + j.nv)],
                                       dtype=np.int64))
        self.nq = self.layout.nq
        self.nv = self.layout.nv
        self.lower = frozen(np.maximum(self.layout.lower, -MAX_MAGNITUDE))
        self.upper = frozen(np.minimum(self.layout.upper, MAX_MAGNITUDE))
        self._split(model, on_path)

    def _chosen(self, model: 'RobotModel', moving: set,
                active_joints: Optional[Sequence[str]]) -> List['Joint']:
        if active_joints is None:
            return [j for j in model.actuated_joints if j.name in moving]
        if isinstance(active_joints, str):
            active_joints = [active_joints]
        try:
            given = list(active_joints)
        except Exception:  # not iterable, or a user's __iter__ that fails
            raise ConfigurationError(f'active_joints must be a joint name or a list of names, '
                                     f'got {type(active_joints).__name__}') from None
        names = set()
        for name in given:  # the model reads a str subclass as a plain str
            joint = model.joint(name)
            if not joint.is_actuated:
                kind = 'a mimic joint' if joint.mimic is not None else f'{joint.type.value}'
                raise ConfigurationError(f"joint '{joint.name}' is {kind}: only actuated joints "
                                         'can be active')
            names.add(joint.name)
        ignored = sorted(names - moving)
        if ignored:
            _LOG.info('joints %s do not move tips %s: they are not used', ignored,
                      list(self.tips))
        return [j for j in model.actuated_joints if j.name in names and j.name in moving]

    def _split(self, model: 'RobotModel', on_path: List['Joint']) -> None:
        reduced = {}
        iq = iv = 0
        for joint in self.active:
            reduced[joint.name] = (iq, iv)
            iq += joint.nq
            iv += joint.nv
        nodes = []
        held: List[int] = []
        for joint in on_path:
            if joint.name in reduced:
                nodes.append((joint,) + reduced[joint.name] + (1.0, 0.0))
            elif joint.mimic is not None and joint.mimic[0] in reduced:
                master, multiplier, offset = joint.mimic
                nodes.append((joint,) + reduced[master] + (multiplier, offset))
            elif joint.is_actuated:
                held.extend(range(joint.idx_q, joint.idx_q + joint.nq))
            elif joint.mimic is not None:
                held.append(model.joint(joint.mimic[0]).idx_q)
        self.nodes: Tuple[tuple, ...] = tuple(nodes)
        self.held_q_index = frozen(np.array(sorted(set(held)), dtype=np.int64))
        self._active_names = frozenset(reduced)

    def moves(self, link: str) -> bool:
        """
        Whether an active joint moves ``link`` relative to the root (directly or by a mimic).

        :param link: a link name.
        :return: True if a joint on the link's path is active or mimics an active joint.
        :raises UnknownFrameError: for an unknown link.
        """
        model = self.model
        for body in model.topology.path(model.link_index(link))[1:]:
            joint = model.joints[body - 1]
            source = joint.mimic[0] if joint.mimic is not None else joint.name
            if source in self._active_names:
                return True
        return False
