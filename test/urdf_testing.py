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
"""Helpers of the tests of the URDF and SRDF reading: document fragments, a path read once."""

import os

from conftest import joint_xml, link_xml, urdf

#: Two links 'a' and 'b', no joint: the start of a document's body.
TWO_LINKS = link_xml('a') + link_xml('b')


class OncePath:
    """A path whose ``__fspath__`` answers once, then fails."""

    def __init__(self, path):
        self.path, self.calls = os.fspath(path), 0

    def __fspath__(self):
        self.calls += 1
        if self.calls > 1:
            raise RuntimeError('__fspath__ called twice')
        return self.path


def chain_urdf(links: int) -> str:
    """Write a valid serial chain of ``links`` links and revolute joints."""
    body = [link_xml('l0')]
    for k in range(1, links):
        body += [link_xml(f'l{k}'), joint_xml(f'j{k}', 'revolute', f'l{k - 1}', f'l{k}',
                                              xyz='0 0 0.01')]
    return urdf('\n'.join(body), 'chain')
