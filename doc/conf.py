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
Sphinx configuration of the frame_kinematics manual.

Built as rosdoc2 builds a Python package (``rosdoc2 build --package-path .`` finds this
``doc/`` folder, and fills ``project``, ``release`` and ``version`` from package.xml when they are
not set here), or directly::

    sphinx-build -W -b html doc /tmp/frame_kinematics_html
    sphinx-build -W -b doctest doc /tmp/frame_kinematics_doctest
"""

import importlib.util
import os
import sys

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.util.docutils import SphinxDirective

# The repository's root. rosdoc2 copies doc/ into a folder of its own and runs this file from
# there: the package is then imported from the sourced workspace, and the repository's files
# outside doc/ are not at hand (rosdoc2 shows the changelog on the package's own page).
_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if os.path.isfile(os.path.join(_ROOT, 'frame_kinematics', '__init__.py')):
    sys.path.insert(0, _ROOT)

project = 'frame_kinematics'
author = 'The frame_kinematics Authors'
copyright = '2026, The frame_kinematics Authors'  # noqa: A001 (the name Sphinx reads)
release = version = '0.1.0'

extensions = [
    'sphinx.ext.autodoc',
    'sphinx.ext.doctest',
    'sphinx.ext.viewcode',
]

# The node and the ROS side import rclpy and ROS messages: the API reference reads their
# docstrings without ROS installed.
autodoc_mock_imports = [
    'rclpy', 'builtin_interfaces', 'geometry_msgs', 'rcl_interfaces', 'sensor_msgs',
    'std_msgs', 'tf2_msgs', 'tf2_ros', 'visualization_msgs', 'frame_kinematics_interfaces',
    'launch', 'launch_ros', 'ament_index_python',
    # the optional extra 'cluster' (reach studies on a Dask cluster)
    'distributed',
]
# The compiled backend's modules import numba, an optional extra: a build with only '.[doc]'
# reads their docstrings with numba mocked (a build that has numba imports it).
if importlib.util.find_spec('numba') is None:
    autodoc_mock_imports.append('numba')
autodoc_member_order = 'bysource'
autodoc_typehints = 'description'
autodoc_default_options = {'members': True, 'show-inheritance': True}

# The guides' examples print arrays to four decimals (both backends agree far beyond that);
# an example whose output depends on the backend (inverse kinematics) asks for numpy, and one
# that needs example-robot-data is skipped without it.
doctest_global_setup = """
import numpy as np
from frame_kinematics import robots
np.set_printoptions(precision=4, suppress=True)
"""

exclude_patterns = ['_build']
html_theme = 'alabaster'
html_static_path = []
# The API reference documents each public name once, where users import it from; the docstrings'
# short references (``:class:`JointKernel```, ``:mod:`.ik```) may match a re-export or a module
# of the same name elsewhere, which Sphinx reports as ambiguous: the first match is right.
suppress_warnings = ['ref.python']


class RepositoryFile(SphinxDirective):
    """
    ``.. repository-file:: PATH``: a file of the repository outside ``doc/``.

    With ``:rst:`` its text is read as part of the page, else it is shown as a literal block.
    Where the file is not at hand (a rosdoc2 build), a sentence names it instead.
    """

    required_arguments = 1
    option_spec = {'rst': directives.flag}

    def run(self):
        """Return the file's nodes, or a sentence naming it."""
        relative = self.arguments[0]
        path = os.path.join(_ROOT, relative)
        if not os.path.isfile(path):
            return [nodes.paragraph(text=f'See {relative} in the repository.')]
        self.env.note_dependency(path)
        with open(path, encoding='utf-8') as handle:
            text = handle.read()
        if 'rst' in self.options:
            self.state_machine.insert_input(text.splitlines(), path)
            return []
        block = nodes.literal_block(text, text)
        block['language'] = 'text'
        return [block]


def setup(app):
    """Register the ``repository-file`` directive."""
    app.add_directive('repository-file', RepositoryFile)
