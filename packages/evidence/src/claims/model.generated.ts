// Written by npm run train:claims (bench/src/claims-train.ts); do not edit by hand.
import type { ClaimModel } from './model.js';

export const CLAIM_MODEL: ClaimModel = {
  features: ['negation_differs', 'antonym_opposed', 'direction_agrees', 'restated', 'restated_opposed'],
  weights: [0.5018, 0.919, -0.2735, -0.1944, 0.7928],
  bias: -0.8726,
  supportsAtMost: 0.2753,
  contradictsAtLeast: 0.4259,
  supportsPrecision: 0.8,
  contradictsPrecision: 0.6,
  trainedOn: 'SciFact train claims with even ids (415 claims; 222 returned gold abstracts that bear on their claim), keyword mode; L2 1; supports at tuning precision 0.80 on 46, contradicts at 0.60 on 43 (targets 0.8 and 0.6)',
};
