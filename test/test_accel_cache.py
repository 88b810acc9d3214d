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
The compiled kernels' disk cache: keyed on what each kernel reads, never stale.

Each end-to-end case runs in a child process on a copy of the package, with numba imported
before it (as the test suite and many programs do), and a cache directory of its own.
"""

import importlib
import json
import os
import shutil
import subprocess
import sys
import textwrap

import frame_kinematics
import pytest

numba = pytest.importorskip('numba')

_RUN = textwrap.dedent("""
    import numba  # first, before the package
    import json, sys
    import numpy as np
    from frame_kinematics import robots
    from frame_kinematics.core import Robot
    from frame_kinematics.core.accel import poses

    compiled = Robot.from_urdf_file(robots.path('fk_quadruped'), backend='numba')
    reference = Robot.from_urdf_file(robots.path('fk_quadruped'), backend='numpy')
    rng = np.random.default_rng(3)
    error = 0.0
    for _ in range(5):
        q = reference.neutral_configuration() + rng.uniform(-1, 1, reference.nq) * 0.5
        q = reference.check_configuration(q)
        for link in reference.link_names:
            error = max(error, float(np.abs(compiled.transform(q, link)
                                            - reference.transform(q, link)).max()))
    stats = poses.pose_checked.stats
    print(json.dumps({'error': error, 'hits': sum(stats.cache_hits.values()),
                      'misses': sum(stats.cache_misses.values())}))
""")


def _copy(tmp_path, name):
    """Copy the package to ``tmp_path/name`` and return that folder."""
    root = tmp_path / name
    shutil.copytree(os.path.dirname(frame_kinematics.__file__), root / 'frame_kinematics',
                    ignore=shutil.ignore_patterns('__pycache__'))
    return root


def _run(root, cache):
    env = dict(os.environ, PYTHONPATH=str(root), FRAME_KINEMATICS_CACHE_DIR=str(cache))
    done = subprocess.run([sys.executable, '-c', _RUN], env=env, capture_output=True,
                          text=True, timeout=900, cwd=str(root))
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.splitlines()[-1]), done.stderr


def test_another_install_loads_the_kernels_and_an_edit_never_loads_stale_ones(tmp_path):
    cache = tmp_path / 'cache'
    first, said = _run(_copy(tmp_path, 'first'), cache)
    assert first['error'] < 1e-12 and first['misses'] > 0 and first['hits'] == 0
    assert said.count(f'compiling the numba kernels, once (kernel cache {cache})') == 1
    second, said = _run(_copy(tmp_path, 'second'), cache)  # another path, same sources
    assert second['error'] < 1e-12 and second['misses'] == 0 and second['hits'] > 0
    assert 'compiling' not in said
    # A layout constant the kernels inline from another module: one more header float.
    tables = tmp_path / 'first' / 'frame_kinematics' / 'core' / 'accel' / 'tables.py'
    text = tables.read_text()
    edited = text.replace('_FLOAT_HEADER = 2', '_FLOAT_HEADER = 3').replace(
        '[MAX_MAGNITUDE, QUATERNION_NORM_TOLERANCE]',
        '[MAX_MAGNITUDE, QUATERNION_NORM_TOLERANCE, 0.0]')
    assert edited.count('_FLOAT_HEADER = 3') == 1 and '0.0]' in edited
    tables.write_text(edited)
    third, _ = _run(tmp_path / 'first', cache)
    assert third['error'] < 1e-12 and third['misses'] > 0


def test_an_unwritable_cache_directory_compiles_in_memory_with_one_notice(tmp_path):
    blocker = tmp_path / 'a_file'
    blocker.write_text('')
    result, stderr = _run(_copy(tmp_path, 'pkg'), blocker / 'cache')
    assert result['error'] < 1e-12 and result['hits'] == 0
    notices = [line for line in stderr.splitlines() if 'cannot be written' in line]
    assert len(notices) == 1 and 'Traceback' not in stderr


def _module(tmp_path, name, constant, options=''):
    """
    Import a module of two kernels, ``outer`` calling ``inner``, which reads ``K``.

    ``inner`` is compiled with the options ``options`` (the text of keyword arguments).
    """
    tmp_path.mkdir()
    (tmp_path / f'{name}.py').write_text(textwrap.dedent(f"""
        import numba
        K = {constant}

        @numba.njit({options})
        def inner(x):
            return x + K

        @numba.njit
        def outer(x):
            return inner(x) * 2
    """))
    sys.path.insert(0, str(tmp_path))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop(name, None)


def test_a_kernel_digest_follows_the_constants_of_the_kernels_it_calls(tmp_path):
    from frame_kinematics.core.accel.cache import kernel_digest
    one, same, other = (_module(tmp_path / folder, name, constant) for folder, name, constant
                        in (('a', 'one', 1.0), ('b', 'same', 1.0), ('c', 'other', 2.0)))
    assert kernel_digest(one.outer) == kernel_digest(same.outer)  # path and name do not count
    assert kernel_digest(one.outer) != kernel_digest(other.outer)
    assert kernel_digest(one.inner) != kernel_digest(one.outer)


def test_a_kernel_digest_follows_the_compile_options_of_the_kernels_it_calls(tmp_path):
    from frame_kinematics.core.accel.cache import kernel_digest
    plain, inlined, numpy_errors = (
        _module(tmp_path / folder, name, 1.0, options) for folder, name, options in
        (('d', 'plain', ''), ('e', 'inlined', "inline='always'"),
         ('f', 'numpy_errors', "error_model='numpy'")))
    digests = {kernel_digest(module.outer) for module in (plain, inlined, numpy_errors)}
    assert len(digests) == 3


def test_a_kernel_digest_follows_constants_read_through_a_module(tmp_path):
    from frame_kinematics.core.accel.cache import kernel_digest
    digests = []
    for folder, constant in (('x', 1.0), ('y', 2.0)):
        inner = _module(tmp_path / folder, f'inner_{folder}', constant)
        (tmp_path / folder / f'outer_{folder}.py').write_text(textwrap.dedent(f"""
            import numba
            import inner_{folder} as inner

            @numba.njit
            def outer(x):
                return inner.K * x + inner.inner(x)
        """))
        sys.path.insert(0, str(tmp_path / folder))
        sys.modules[f'inner_{folder}'] = inner
        try:
            outer = importlib.import_module(f'outer_{folder}')
        finally:
            sys.path.remove(str(tmp_path / folder))
            sys.modules.pop(f'outer_{folder}', None)
            sys.modules.pop(f'inner_{folder}', None)
        digests.append(kernel_digest(outer.outer))
    assert digests[0] != digests[1]


def test_threads_probing_the_cache_directory_at_once_all_find_it_writable(tmp_path):
    import threading
    from frame_kinematics.core.accel.cache import writable
    answers = []
    barrier = threading.Barrier(16)

    def probe():
        barrier.wait()
        answers.extend(writable(str(tmp_path)) for _ in range(50))

    threads = [threading.Thread(target=probe) for _ in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert answers == [True] * 800 and list(tmp_path.iterdir()) == []


_THREADS = """
import sys, threading
from frame_kinematics import robots
from frame_kinematics.core import Robot
errors, barrier = [], threading.Barrier(6)

def build():
    barrier.wait()
    try:
        Robot.from_urdf_file(robots.path('fk_arm'), backend='numba')
    except Exception as error:
        errors.append(repr(error))

threads = [threading.Thread(target=build) for _ in range(6)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(errors)
"""


def test_threads_building_the_first_numba_models_of_a_process_at_once(tmp_path):
    done = subprocess.run([sys.executable, '-c', _THREADS], capture_output=True, text=True,
                          timeout=900)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == '[]'


def test_a_damaged_cache_file_is_a_miss_and_is_written_again(tmp_path):
    from frame_kinematics.core.accel import cache

    def double(x):
        return 2.0 * x

    first = numba.njit(double)
    cache.attach([first], str(tmp_path))
    assert first(2.0) == 4.0  # compiled and saved
    files = sorted(tmp_path.glob('*.nbc'))
    assert files
    for path in files:
        path.write_bytes(path.read_bytes()[:20])
    second = numba.njit(double)
    cache.attach([second], str(tmp_path))
    assert second(2.0) == 4.0  # the damaged file is compiled again, without a traceback
    assert sum(second.stats.cache_misses.values()) == 1
    third = numba.njit(double)
    cache.attach([third], str(tmp_path))
    assert third(2.0) == 4.0 and sum(third.stats.cache_hits.values()) == 1
