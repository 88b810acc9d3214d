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
Helpers of the ROS tests (no ROS import here).

Every DDS participant of a test stays on the loopback interface, in a domain of its own.
"""

import contextlib
import fcntl
import os
import shutil
import signal
import subprocess
import tempfile
import time
from typing import Callable, Iterator

import pytest

#: The loopback interface in :data:`LOOPBACK_CYCLONE`.
LOOPBACK_INTERFACE = '<Interfaces><NetworkInterface name="lo"/></Interfaces>'
#: Cyclone DDS on ``lo`` only, no multicast, 127.0.0.1 the only peer.
LOOPBACK_CYCLONE = ('<CycloneDDS><Domain Id="any"><General>' + LOOPBACK_INTERFACE +
                    '<AllowMulticast>false</AllowMulticast></General><Discovery>'
                    '<Peers><Peer address="127.0.0.1"/></Peers>'
                    '<ParticipantIndex>auto</ParticipantIndex>'
                    '<MaxAutoParticipantIndex>64</MaxAutoParticipantIndex>'
                    '</Discovery></Domain></CycloneDDS>')

#: ``builtin_interfaces/Time`` stamps ``(sec, nanosec)`` at and near the int32 limits.
INT32_STAMPS = [(-2 ** 31, 0), (-2 ** 31, 999_999_999), (-1, 999_999_999), (-2, 5), (0, 0),
                (2 ** 31 - 1, 999_999_999), (2 ** 31 - 1, 0)]


@contextlib.contextmanager
def stay_on_loopback(domain_id: int) -> Iterator[None]:
    """
    Set the environment every participant reads, and restore it on leaving.

    Enter it before any participant exists (``rclpy.init``, the processes a test starts): a
    module-scoped autouse fixture of each ROS test file.

    :param domain_id: the ROS domain of the test file (processes it starts inherit it).
    """
    config = LOOPBACK_CYCLONE
    if os.environ.get('ROS_DISTRO') == 'humble':
        # Humble's rmw_cyclonedds_cpp itself selects 127.0.0.1 under ROS_LOCALHOST_ONLY=1, and
        # Cyclone refuses an interface selected twice ("failed to create domain")
        config = config.replace(LOOPBACK_INTERFACE, '')
    values = {'ROS_LOCALHOST_ONLY': '1', 'ROS_AUTOMATIC_DISCOVERY_RANGE': 'LOCALHOST',
              'CYCLONEDDS_URI': config, 'ROS_DOMAIN_ID': str(domain_id)}
    before = {name: os.environ.get(name) for name in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


#: The ROS domains the tests take: those whose ports stay below Linux's ephemeral ports (ROS
#: 2's "The ROS_DOMAIN_ID" concept page), but 0, every other ROS user's default.
DOMAINS = tuple(range(1, 102)) + tuple(range(215, 233))


@contextlib.contextmanager
def free_domain() -> Iterator[int]:
    """
    Claim a domain of :data:`DOMAINS` that no other test of this machine holds, until leaving.

    A domain is held by an exclusive lock on its file in the temporary directory, which the
    system releases when its holder ends, however it ends. The search starts at a domain
    picked by the process id.

    :raises RuntimeError: when every domain is held.
    """
    start = os.getpid() % len(DOMAINS)
    for k in range(len(DOMAINS)):
        domain = DOMAINS[(start + k) % len(DOMAINS)]
        lock = open(os.path.join(tempfile.gettempdir(),
                                 f'frame_kinematics_test_domain_{domain}.lock'), 'a')
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:  # another test run holds it
            lock.close()
            continue
        try:
            yield domain
        finally:
            lock.close()
        return
    raise RuntimeError(f'all {len(DOMAINS)} test domains are held by other test runs')


def loopback_fixture() -> Callable:
    """
    Make the module-scoped autouse fixture ``loopback`` of a ROS test file.

    Its participants stay on the loopback interface (:func:`stay_on_loopback`) from the
    file's first test to its last, in a domain no other test of the machine holds
    (:func:`free_domain`): ``loopback = loopback_fixture()`` in the file.
    """
    @pytest.fixture(scope='module', autouse=True, name='loopback')
    def loopback() -> Iterator[None]:
        """Keep every DDS participant of this file on the loopback interface."""
        with free_domain() as domain, stay_on_loopback(domain):
            yield

    return loopback


def context_fixture() -> Callable:
    """
    Make the fixture ``context`` of a ROS test file: an rclpy context of its own per test.

    ``context = context_fixture()`` in the file; it is shut down after the test.
    """
    @pytest.fixture(name='context')
    def context() -> Iterator:
        """Initialise a context of this test's own, and shut it down after."""
        rclpy = pytest.importorskip('rclpy')
        ctx = rclpy.context.Context()
        rclpy.init(context=ctx)
        yield ctx
        rclpy.try_shutdown(context=ctx)

    return context


def installed(package: str = 'frame_kinematics') -> bool:
    """Whether ``package`` is in the ament index of the sourced workspaces."""
    packages = pytest.importorskip('ament_index_python.packages')
    try:
        packages.get_package_prefix(package)
    except packages.PackageNotFoundError:
        return False
    return True


def needs_workspace() -> pytest.MarkDecorator:
    """Skip mark of a test file that starts the node: this package installed, ``ros2`` found."""
    return pytest.mark.skipif(not installed() or shutil.which('ros2') is None,
                              reason='frame_kinematics is not installed in a ROS 2 workspace')


def node_executable() -> str:
    """Return the path of the installed ``frame_kinematics_node``."""
    packages = pytest.importorskip('ament_index_python.packages')
    return os.path.join(packages.get_package_prefix('frame_kinematics'), 'lib',
                        'frame_kinematics', 'frame_kinematics_node')


def spin_until(executor, predicate, timeout: float):
    """
    Spin ``executor`` until ``predicate()`` returns something true, or ``timeout`` seconds.

    :return: that value, or None.
    """
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        executor.spin_once(timeout_sec=0.05)
        value = predicate()
        if value:
            return value
    return None


#: SIGINT to the group (a node), again, then SIGKILL; seconds to wait after each.
NODE_STOP = (('group', signal.SIGINT, 10), ('group', signal.SIGINT, 5),
             ('group', signal.SIGKILL, 5))
#: SIGINT to ``ros2 launch`` (it stops its nodes), then SIGINT, SIGTERM, SIGKILL to the group.
LAUNCH_STOP = (('process', signal.SIGINT, 15), ('group', signal.SIGINT, 5),
               ('group', signal.SIGTERM, 5), ('group', signal.SIGKILL, 5))


def stop_group(process: subprocess.Popen, steps=NODE_STOP) -> None:
    """
    Stop a process started in a process group of its own, escalating until it ends.

    A plain rclpy node sometimes misses the first signal (a race in rclpy's shutdown).

    :param process: the process.
    :param steps: ``(target, signal, seconds)``: ``target`` is ``process`` or ``group``.
    """
    for target, sig, wait in steps:
        if process.poll() is not None:
            return
        try:
            if target == 'process':
                process.send_signal(sig)
            else:
                os.killpg(process.pid, sig)
        except ProcessLookupError:
            return
        try:
            process.wait(wait)
        except subprocess.TimeoutExpired:
            continue
