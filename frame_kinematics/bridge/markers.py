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
Center-of-mass markers for RViz, as plain data (no ROS).

:func:`com_markers` turns a robot model and one state into the content of the node's
``com_markers`` topic (a ``visualization_msgs/MarkerArray``). Every marker is expressed in the
(prefixed) root link at the stamp of the joint state it comes from, so RViz needs no other
transform than the root's to show it:

* namespace ``com``, id 0: a sphere at the robot's center of mass;
* namespace ``com_ground``, id 0: a flat disc at its projection on the root link's xy plane
  (``z = 0`` of the root frame: the ground of a fixed-base robot, or of a floating base's
  world link);
* namespace ``link_com``, id = the link's index in the model: a sphere at the center of mass
  of each link with a positive mass, its volume proportional to the mass (the heaviest link
  gets :attr:`MarkerStyle.link_diameter`).

The ids stay the same from one state to the next, so each message replaces the markers of the
previous one; they change only with the model.
"""

from dataclasses import dataclass, fields
import math
from typing import List, NamedTuple, Tuple

import numpy as np

from .throttle import MAX_STAMP_NS, MIN_STAMP_NS
from ..core.errors import ConfigurationError
from ..core.kinematics import KinematicsState
from ..core.model import RobotModel

#: Marker shapes (``visualization_msgs/Marker`` SPHERE and CYLINDER).
SPHERE = 'sphere'
CYLINDER = 'cylinder'

#: Marker namespaces.
COM_NAMESPACE = 'com'
GROUND_NAMESPACE = 'com_ground'
LINK_NAMESPACE = 'link_com'

Color = Tuple[float, float, float, float]


@dataclass(frozen=True)
class MarkerStyle:
    """
    Sizes (metres) and colours (RGBA in [0, 1]) of the center-of-mass markers.

    :ivar com_diameter: diameter of the robot CoM sphere.
    :ivar ground_diameter: diameter of the ground-projection disc.
    :ivar ground_height: thickness of the ground-projection disc.
    :ivar link_diameter: diameter of the heaviest link's CoM sphere.
    :ivar min_link_diameter: smallest link sphere (light links stay visible).
    :ivar com_color: colour of the robot CoM sphere.
    :ivar ground_color: colour of the ground-projection disc.
    :ivar link_color: colour of the link CoM spheres.
    """

    com_diameter: float = 0.06
    ground_diameter: float = 0.08
    ground_height: float = 0.002
    link_diameter: float = 0.05
    min_link_diameter: float = 0.01
    com_color: Color = (1.0, 0.0, 1.0, 0.9)
    ground_color: Color = (1.0, 0.0, 1.0, 0.5)
    link_color: Color = (1.0, 0.6, 0.0, 0.7)

    def __post_init__(self) -> None:
        """Check every size and colour."""
        for item in fields(self):
            value = getattr(self, item.name)
            if item.name.endswith('color'):
                _check_color(item.name, value)
            elif not (isinstance(value, (int, float)) and not isinstance(value, bool)
                      and math.isfinite(value) and value > 0):
                raise ConfigurationError(f'marker style {item.name} must be a positive number '
                                         f'of metres, got {value!r}')


def _check_color(name: str, value) -> None:
    try:
        rgba = np.asarray(value, dtype=float).reshape(-1)
    except (TypeError, ValueError):
        rgba = np.full(0, np.nan)
    if rgba.shape != (4,) or not np.all((rgba >= 0) & (rgba <= 1)):
        raise ConfigurationError(f'marker style {name} must be 4 numbers (RGBA) in [0, 1], '
                                 f'got {value!r}')


class MarkerOut(NamedTuple):
    """
    One ``visualization_msgs/Marker`` to add (orientation: identity).

    :ivar namespace: marker namespace (``ns``).
    :ivar marker_id: id, unique within the namespace and stable for a model.
    :ivar shape: :data:`SPHERE` or :data:`CYLINDER`.
    :ivar frame_id: header frame id (the prefixed root link).
    :ivar stamp_ns: header stamp in nanoseconds.
    :ivar position: marker center in ``frame_id``.
    :ivar scale: x, y, z sizes in metres.
    :ivar color: RGBA in [0, 1].
    """

    namespace: str
    marker_id: int
    shape: str
    frame_id: str
    stamp_ns: int
    position: Tuple[float, float, float]
    scale: Tuple[float, float, float]
    color: Color


def com_markers(model: RobotModel, state: KinematicsState, stamp_ns: int,
                frame_prefix: str = '', style: MarkerStyle = MarkerStyle()) -> List[MarkerOut]:
    """
    Markers of the robot CoM, its ground projection and every link's CoM.

    :param model: the robot model.
    :param state: one configuration of ``model`` (not a batch).
    :param stamp_ns: stamp of the markers in nanoseconds (that of the joint state).
    :param frame_prefix: prepended to the root link's name, as the node's ``frame_prefix``.
    :param style: sizes and colours.
    :return: the markers, robot CoM first, then its projection, then the links in model
        order; empty for a robot without mass.
    :raises ConfigurationError: for a batch state, a state of another model or a bad stamp.
    """
    if state.model is not model:
        raise ConfigurationError(f"the state given for the markers of robot '{model.name}' is "
                                 f"one of robot '{state.model.name}'")
    if state.batch_shape:
        raise ConfigurationError(f'markers need one configuration, got a batch of shape '
                                 f'{state.batch_shape}')
    if isinstance(stamp_ns, bool) or not isinstance(stamp_ns, (int, np.integer)) or \
            not MIN_STAMP_NS <= stamp_ns <= MAX_STAMP_NS:
        raise ConfigurationError('marker stamp must be an integer of nanoseconds that a '
                                 f'builtin_interfaces/Time holds, got {stamp_ns!r}')
    if model.total_mass <= 0:
        return []
    frame_id = frame_prefix + model.root_link
    stamp_ns = int(stamp_ns)
    root_p_com = state.center_of_mass().tolist()
    com = MarkerOut(COM_NAMESPACE, 0, SPHERE, frame_id, stamp_ns, tuple(root_p_com),
                    (style.com_diameter,) * 3, tuple(style.com_color))
    ground = MarkerOut(GROUND_NAMESPACE, 0, CYLINDER, frame_id, stamp_ns,
                       (root_p_com[0], root_p_com[1], 0.0),
                       (style.ground_diameter, style.ground_diameter, style.ground_height),
                       tuple(style.ground_color))
    masses = model.link_masses
    heaviest = float(masses.max())
    diameters = np.maximum(style.link_diameter * np.cbrt(masses / heaviest),
                           style.min_link_diameter).tolist()
    centers = state.link_centers_of_mass().tolist()
    color = tuple(style.link_color)
    links = [MarkerOut(LINK_NAMESPACE, link.index, SPHERE, frame_id, stamp_ns,
                       tuple(centers[link.index]), (diameters[link.index],) * 3, color)
             for link in model.links if link.mass > 0]
    return [com, ground] + links


__all__ = ['COM_NAMESPACE', 'CYLINDER', 'GROUND_NAMESPACE', 'LINK_NAMESPACE', 'MarkerOut',
           'MarkerStyle', 'SPHERE', 'com_markers']
