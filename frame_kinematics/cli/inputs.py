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
Reading what a command works on: the robot model, configurations and input files.

A configuration is given as ``NAME=VALUE`` pairs and/or a ``--config`` file. Entries given
nowhere take their default: 0 (identity quaternion for a floating joint), or the nearest
joint limit when 0 is outside the limits, so that a default never violates them. A mimic
joint may be given in place of its master (``master = (value - offset) / multiplier``).

Every input file is read once, at most :data:`MAX_FILE_BYTES` of it, whatever it is (a file,
a pipe, a device or a FIFO: :mod:`~frame_kinematics.core.file_input`). YAML anchors and aliases
are refused before any node is built, so that a document cannot expand beyond its size.
"""

import json
import math
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from .common import CommandLineError, LOG
from ..core import configuration as cfg
from ..core.checks import first_repeated, MAX_MAGNITUDE, parse_number
from ..core.errors import (ConfigurationError, excerpt, name_list, quote,
                           UnknownFrameError)
from ..core.file_input import read_bounded
from ..core.model import RobotModel
from ..picture_canvas import MissingDependencyError

#: Largest disagreement accepted between a mimic joint's value and its master's.
MIMIC_TOLERANCE = 1e-6
#: Deepest nesting of lists and mappings accepted in a JSON or YAML file.
MAX_NESTING = 16
#: Largest input file read (configurations, targets, constraints), as a URDF document.
MAX_FILE_BYTES = 64 * 1024 * 1024


def number(value, name: str) -> float:
    """
    Read a finite number of magnitude at most :data:`MAX_MAGNITUDE`.

    :param value: a number or its text.
    :param name: what it is, for the message.
    :return: the float.
    :raises ConfigurationError: for anything else.
    """
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise ConfigurationError(f"malformed number {quote(value)} for '{name}'")
    shown = excerpt(value) if isinstance(value, str) else quote(value)
    try:
        x = parse_number(value) if isinstance(value, str) else float(value)
    except ValueError:
        raise ConfigurationError(f"malformed number '{shown}' for '{name}'") from None
    except OverflowError:  # an int beyond the floats
        x = math.inf
    if math.isnan(x) or (math.isinf(x) and not isinstance(value, int)):
        raise ConfigurationError(f"'{shown}' for '{name}' is not a finite number")
    if abs(x) > MAX_MAGNITUDE:
        raise ConfigurationError(f"'{shown}' for '{name}' exceeds {MAX_MAGNITUDE:g} in "
                                 'magnitude')
    return x


def parse_pairs(tokens: Sequence[str], what: str) -> Dict[str, str]:
    """
    Read ``NAME=VALUE`` tokens.

    :param tokens: the tokens.
    :param what: what a name is (``joint``), for the messages.
    :return: ``{name: value text}``.
    :raises CommandLineError: for a token without ``=`` or a name given twice.
    """
    pairs: Dict[str, str] = {}
    for token in tokens:
        name, sep, value = token.partition('=')
        name = name.strip()
        if not sep or not name:
            raise CommandLineError(f"expected NAME=VALUE for a {what}, got '{excerpt(token)}'")
        if name in pairs:
            raise CommandLineError(f"{what} '{excerpt(name)}' is given twice")
        pairs[name] = value.strip()
    return pairs


def _entries(model: RobotModel, values: Dict[str, object], velocity: bool) -> Dict[str, float]:
    """
    ``{q or v entry: number}`` from ``{joint or entry: value}``.

    A floating or planar joint takes a list (or a comma-separated text); a mimic joint
    sets its actuated master.
    """
    names = model.velocity_names if velocity else model.configuration_names
    known = set(names)
    groups = {j.name: [n for n in names if n.startswith(j.name + '/')]
              for j in model.actuated_joints if not j.type.one_dof}
    mimics = {j.name: j.mimic for j in model.mimic_joints}
    unknown = [name for name in values
               if name not in known and name not in groups and name not in mimics]
    if unknown:
        raise UnknownFrameError(unknown[0] if len(unknown) == 1 else name_list(unknown),
                                list(names) + list(groups) + list(mimics),
                                'joint' if len(unknown) == 1 else 'joints')
    entries: Dict[str, float] = {}
    given_as: Dict[str, str] = {}

    def put(entry: str, value, name: str) -> None:
        if entry in entries:
            raise ConfigurationError(f"'{entry}' is given twice: as '{given_as[entry]}' and "
                                     f"as '{name}'")
        entries[entry], given_as[entry] = number(value, entry), name

    for name, value in values.items():
        if name in groups:
            parts = value.split(',') if isinstance(value, str) else value
            if not isinstance(parts, (list, tuple)) or len(parts) != len(groups[name]):
                raise ConfigurationError(
                    f"joint '{name}' takes {len(groups[name])} values "
                    f"({', '.join(groups[name])}), got {quote(value)}")
            for entry, part in zip(groups[name], parts):
                put(entry, part, name)
        elif name in known:
            put(name, value, name)
    for name, value in values.items():
        if name in mimics:
            _set_from_mimic(entries, name, number(value, name), mimics[name], velocity)
    return entries


def _set_from_mimic(entries: Dict[str, float], name: str, value: float, mimic,
                    velocity: bool) -> None:
    master, multiplier, offset = mimic
    relation = f'{name} = {multiplier:g} * {master} + {offset:g}'
    if multiplier == 0:
        raise ConfigurationError(f"joint '{name}' is a mimic of '{master}' with multiplier 0 "
                                 f'({relation}): give {master}')
    wanted = value / multiplier if velocity else (value - offset) / multiplier
    given = entries.get(master)
    if given is None:
        entries[master] = wanted
    elif abs(given - wanted) > MIMIC_TOLERANCE * max(1.0, abs(given)):
        raise ConfigurationError(f"joint '{name}'={value:g} is a mimic of '{master}' "
                                 f'({relation}) and asks for {master}={wanted:g}, but '
                                 f'{master}={given:g} is given')


def read_json(text: str, path: str) -> Any:
    """
    Parse a JSON document.

    :param text: the document.
    :param path: its file, for the message.
    :return: the data.
    :raises CommandLineError: for invalid JSON, a key given twice in one object, or JSON
        nested deeper than :data:`MAX_NESTING`.
    """
    def unique(pairs: List[Tuple[str, object]]) -> dict:
        document = dict(pairs)
        if len(document) != len(pairs):
            raise _twice(path, first_repeated(key for key, _ in pairs))
        return document

    try:
        document = json.loads(text, object_pairs_hook=unique)
    except CommandLineError:
        raise
    except ValueError as exc:
        raise CommandLineError(f'{path} is not valid JSON: {exc}') from None
    except RecursionError:
        raise _too_deep(path) from None
    return _shallow(document, path)


def _twice(path: str, key: str) -> CommandLineError:
    return CommandLineError(f'{path}: the key {quote(key)} is given twice in one mapping')


def _too_deep(path: str) -> CommandLineError:
    return CommandLineError(f'{path} nests lists or mappings more than {MAX_NESTING} deep')


def _shallow(document, path: str):
    """Return ``document`` if it nests lists and mappings at most :data:`MAX_NESTING` deep."""
    level = [document]
    for _ in range(MAX_NESTING + 1):
        level = [item for node in level if isinstance(node, (list, dict))
                 for item in (node.values() if isinstance(node, dict) else node)]
        if not level:
            return document
    raise _too_deep(path)


def read_text(path: str) -> str:
    """
    Read an input file's text once, at most :data:`MAX_FILE_BYTES` of it.

    :param path: the file (or a pipe, a device, a FIFO).
    :return: its text.
    :raises CommandLineError: naming the file, if it cannot be read, is larger than
        :data:`MAX_FILE_BYTES`, is a FIFO no process writes to, or is not UTF-8 (a byte
        order mark at its start is dropped).
    """
    data = read_bounded(path, MAX_FILE_BYTES, CommandLineError, 'a path')
    try:  # a UTF-8 signature (a byte order mark, as Excel's "CSV UTF-8" writes) is dropped
        return data.decode('utf-8-sig')
    except UnicodeDecodeError as exc:
        raise CommandLineError(f"file '{path}': not UTF-8 text ({exc.reason} at byte "
                               f'{exc.start})') from None


def _yaml_documents(yaml, text: str, path: str) -> list:
    """
    Parse the documents of a YAML text, refusing anchors and aliases before they expand.

    :param yaml: the pyyaml module.
    :param text: the text.
    :param path: its file, for the message.
    :return: the documents that are not empty.
    :raises CommandLineError: at the first anchor or alias, a key given twice in one mapping
        (pyyaml keeps the last), or lists and mappings nested deeper than
        :data:`MAX_NESTING`.
    """
    loader = getattr(yaml, 'CSafeLoader', yaml.SafeLoader)  # libyaml's parser when present
    # the open collections: None for a sequence; for a mapping, its keys so far and
    # whether its next node is a key
    open_collections: List[Optional[list]] = []

    def node_ends(key: Optional[str]) -> None:
        mapping = open_collections[-1] if open_collections else None
        if mapping is not None:
            if mapping[1] and key is not None:
                if key in mapping[0]:
                    raise _twice(path, key)
                mapping[0].add(key)
            mapping[1] = not mapping[1]

    for event in yaml.parse(text, Loader=loader):  # events only: nothing is built yet
        if isinstance(event, yaml.AliasEvent) or getattr(event, 'anchor', None):
            raise CommandLineError(f'{path} line {event.start_mark.line + 1}: YAML '
                                   'anchors and aliases (&name, *name) are not accepted: '
                                   'write the values out')
        if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
            if len(open_collections) >= MAX_NESTING:
                raise _too_deep(path)
            mapping = isinstance(event, yaml.MappingStartEvent)
            open_collections.append([set(), True] if mapping else None)
        elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
            open_collections.pop()
            node_ends(None)
        elif isinstance(event, yaml.ScalarEvent):
            node_ends(event.value)
    return [d for d in yaml.load_all(text, loader) if d is not None]


def read_document(path: str) -> Any:
    """
    Read a JSON file, or a YAML file (JSON is YAML) when pyyaml is installed.

    :param path: the file.
    :return: the data of its first document.
    :raises CommandLineError: for an unreadable, too large, empty or invalid file, a YAML
        anchor or alias, or a file nested deeper than :data:`MAX_NESTING`.
    :raises MissingDependencyError: for a ``.yaml`` file without pyyaml.
    """
    text = read_text(path)
    if path.lower().endswith('.json'):
        return read_json(text, path)
    try:
        import yaml
    except ImportError:
        if path.lower().endswith(('.yaml', '.yml')):
            raise MissingDependencyError('pyyaml', f'reading the YAML file {path}') from None
        return read_json(text, path)
    try:
        documents = _yaml_documents(yaml, text, path)
    except (yaml.YAMLError, ValueError) as exc:  # ValueError: a value yaml cannot build
        if isinstance(exc, CommandLineError):
            raise
        if 'maximum nesting depth' in str(exc):  # libyaml's own bound, met looking ahead
            raise _too_deep(path) from None
        raise CommandLineError(f'{path} is not valid YAML or JSON: '
                               f"{excerpt(' '.join(str(exc).split()))}") from None
    except RecursionError:
        raise _too_deep(path) from None
    if not documents:
        raise CommandLineError(f'{path} is empty')
    return _shallow(documents[0], path)


def _joint_state(document: dict, path: str) -> List[Optional[dict]]:
    """``[{name: position}, {name: velocity}]`` of a JointState (``None`` where empty)."""
    names = document['name']
    seen = set()
    for k, name in enumerate(names):
        if not isinstance(name, str):
            raise CommandLineError(f"{path}: 'name' must be a list of joint names, item {k} is "
                                   f'{quote(name)}')
        if name in seen:
            raise CommandLineError(f"{path}: 'name' gives the joint '{excerpt(name)}' twice")
        seen.add(name)
    out = []
    for key in ('position', 'velocity'):
        values = document.get(key)
        if values is not None and not isinstance(values, list):
            raise CommandLineError(f"{path}: '{key}' must be a list of numbers, got "
                                   f'{type(values).__name__}')
        if values and len(values) != len(names):
            raise CommandLineError(f"{path}: '{key}' has {len(values)} values for "
                                   f'{len(names)} names')
        out.append(dict(zip(names, values)) if values else None)
    return out


def _states_from_document(document, path: str) -> Tuple[object, Optional[object]]:
    """Positions and velocities of a configuration file (see the ``--config`` help)."""
    if isinstance(document, list):
        return document, None
    if not isinstance(document, dict):
        raise CommandLineError(f'{path}: expected a mapping of joint names to values or a list '
                               f'of numbers, got {type(document).__name__}')
    if isinstance(document.get('name'), list):
        positions, velocities = _joint_state(document, path)
        return positions or {}, velocities
    if document and set(document) <= {'positions', 'velocities'}:
        return document.get('positions') or {}, document.get('velocities')
    return document, None


def _configuration_list(model: RobotModel, values: list, path: str) -> np.ndarray:
    names = model.configuration_names
    if any(isinstance(v, (list, tuple, dict)) for v in values):
        raise CommandLineError(f'{path} holds a list of configurations: --config takes one '
                               f'configuration, a list of {model.nq} numbers or a mapping '
                               '(for many targets use ik --targets)')
    if len(values) != model.nq:
        raise CommandLineError(f'{path}: a configuration of {model.name} has {model.nq} '
                               f'values ({name_list(names)}), got {len(values)}')
    return np.array([number(v, f'{path}[{i}]') for i, v in enumerate(values)])


def read_states(model: RobotModel, pairs: Sequence[str] = (), config: Optional[str] = None,
                beyond_limits: str = '') -> Tuple[np.ndarray, Optional[np.ndarray]]:
    """
    Read a configuration (and a velocity, if the file has one) and NAME=VALUE pairs.

    Pairs override the file's values; entries given nowhere take their default (see
    :meth:`RobotModel.neutral_configuration`). A warning names the given values beyond the joint
    limits.

    :param model: the robot model.
    :param pairs: ``NAME=VALUE`` tokens.
    :param config: a configuration file, or ``None``.
    :param beyond_limits: what the command does with values beyond the limits, appended to
        the warning.
    :return: ``q`` and ``v`` (``None`` without velocities in the file).
    """
    positions: object = {}
    velocities: Optional[object] = None
    if config:
        positions, velocities = _states_from_document(read_document(config), config)
    q = model.neutral_configuration()
    given: List[str] = []
    entries: Dict[str, float] = {}
    if isinstance(positions, list):
        q = _configuration_list(model, positions, config)
        given = list(model.configuration_names)
    elif isinstance(positions, dict):
        entries = _entries(model, positions, velocity=False)
    else:
        raise CommandLineError(f'{config}: positions must be a mapping or a list')
    entries.update(_entries(model, parse_pairs(pairs, 'joint'), velocity=False))
    index = {name: i for i, name in enumerate(model.configuration_names)}
    for name, value in entries.items():
        q[index[name]] = value
    given += [name for name in entries if name not in given]
    q = model.check_configuration(q, 'the configuration')
    _warn_beyond_limits(model, q, given, beyond_limits)
    v = None
    if velocities is not None:
        if not isinstance(velocities, dict):
            raise CommandLineError(f'{config}: velocities must be a mapping of joint names')
        v = velocity_vector(model, velocities)
    return q, v


def _warn_beyond_limits(model: RobotModel, q: np.ndarray, given: Sequence[str],
                        consequence: str) -> None:
    lower, upper = cfg.joint_limits(model)
    index = {name: i for i, name in enumerate(model.configuration_names)}
    beyond = [f'{name}={q[index[name]]:g} (limits {lower[index[name]]:g} to '
              f'{upper[index[name]]:g})'
              for name in model.configuration_names if name in given and
              not lower[index[name]] <= q[index[name]] <= upper[index[name]]]
    if beyond:
        LOG.warning('beyond the joint limits: %s%s', ', '.join(beyond),
                    f'; {consequence}' if consequence else '')


def default_link(model: RobotModel, link: Optional[str]) -> str:
    """
    Return the link a command works on: ``--link``, else ``tool0``.

    :param model: the robot model.
    :param link: the ``--link`` option, or ``None``.
    :return: the link name.
    :raises UnknownFrameError: for an unknown link.
    :raises CommandLineError: without ``--link`` on a robot with no ``tool0``.
    """
    if link:
        model.link_index(link)
        return link
    if model.has_link('tool0'):
        return 'tool0'
    raise CommandLineError(f"robot '{model.name}' has no link 'tool0': choose one with --link "
                           f'(links: {name_list(model.link_names)})')


def velocity_vector(model: RobotModel, values: Dict[str, object],
                    base: Optional[np.ndarray] = None) -> np.ndarray:
    """
    Build ``v`` from ``{joint or entry: value}`` on top of ``base`` (default zeros).

    :param model: the robot model.
    :param values: the velocities given.
    :param base: velocities the given ones override.
    :return: ``(nv,)``.
    """
    v = np.zeros(model.nv) if base is None else np.array(base, dtype=float)
    index = {name: i for i, name in enumerate(model.velocity_names)}
    for name, value in _entries(model, values, velocity=True).items():
        v[index[name]] = value
    return v
