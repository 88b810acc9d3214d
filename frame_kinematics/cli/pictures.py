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
``frame-kinematics render``: a picture of the frame tree, or of a motion.

The output's extension gives the format: ``.png`` a picture (a strip of pictures for a
motion), ``.gif`` an animation (one frame without ``--to``/``--to-config``).
"""

import argparse

from .common import emit, Progress, usage_errors
from .inputs import read_states
from .robot_input import model_of
from .. import picture_canvas

_AS_GIVEN = 'drawn at the values given'


def run(args: argparse.Namespace) -> int:
    """
    Draw the picture and print its path and size.

    :param args: the parsed command line.
    :return: the exit status.
    """
    from .. import render
    with usage_errors('-o/--output'):
        picture_canvas.check_output(args.output, ('.png', '.gif'))
    model = model_of(args)
    q, _ = read_states(model, args.pairs, args.config, _AS_GIVEN)
    links = list(args.links) if args.links else None
    options = {'size': args.size, 'view': args.view, 'links': links,
               'axis_length': args.axis_length, 'labels': not args.no_labels,
               'axes': args.axes}
    if args.to is None and args.to_config is None:
        path = render.render_configuration(model, q, args.output, **options)
    else:
        q_end, _ = read_states(model, args.to or (), args.to_config, _AS_GIVEN)
        path = render.render_motion(model, q, q_end, args.output, frames=args.frames,
                                    columns=args.columns, fps=args.fps,
                                    progress=Progress('frames drawn', not args.quiet),
                                    **options)
    width, height = render.picture_size(path)
    emit(f'wrote {path} ({width}x{height} pixels)')
    return 0
