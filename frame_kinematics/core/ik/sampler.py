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
Random restarts: reduced configurations drawn within the limits of the active joints.

Bounded coordinates are drawn uniformly within their limits, angles over one turn at most
(:meth:`~frame_kinematics.core.joints.ConfigurationLayout.turn_bounds`), a floating joint's
quaternion in ``[-1, 1]^4`` then normalised (a random orientation); coordinates without
limits (a floating joint's position, planar joints, unbounded prismatic joints) keep the
seed's values, so a floating base starts where the seed puts it.
"""

import numpy as np

from ..joints import ConfigurationLayout


class Sampler:
    """Random reduced configurations within the limits (unbounded entries keep the seed)."""

    def __init__(self, layout: ConfigurationLayout, rng: np.random.Generator) -> None:
        """
        Prepare the bounds.

        :param layout: layout of the reduced configuration.
        :param rng: the generator the draws come from (owned by the call).
        """
        lower, upper = layout.turn_bounds()
        self.bounded = np.isfinite(lower) & np.isfinite(upper)
        self.quaternions = [slice(iq + 3, iq + 7) for iq, _, _ in layout.floating]
        self.lower = np.where(self.bounded, lower, 0.0)
        self.width = np.where(self.bounded, upper - lower, 0.0)
        self.rng = rng

    def sample(self, seeds: np.ndarray) -> np.ndarray:
        """
        One random configuration per row of ``seeds`` (their unbounded entries kept).

        :param seeds: ``(N, n)``.
        :return: ``(N, n)``.
        """
        draw = np.where(self.bounded, self.lower + self.rng.random(seeds.shape) * self.width,
                        seeds)
        for quaternion in self.quaternions:
            draw[..., quaternion] /= np.linalg.norm(draw[..., quaternion], axis=-1)[..., None]
        return draw
