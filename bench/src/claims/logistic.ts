/**
 * A deterministic logistic regression for `npm run train:claims`: full-batch gradient descent from
 * zero weights, a fixed step and number of steps, L2 on the weights (not the bias). The same
 * examples in the same order give the same weights, to the bit.
 */
export interface LogisticFit {
  weights: number[];
  bias: number;
}

export const LOGISTIC_STEPS = 6000;
export const LOGISTIC_RATE = 0.5;

export function fitLogistic(features: number[][], labels: number[], l2: number): LogisticFit {
  const width = features[0]?.length ?? 0;
  const weights = new Array<number>(width).fill(0);
  let bias = 0;
  const count = Math.max(1, features.length);
  for (let step = 0; step < LOGISTIC_STEPS; step++) {
    const gradient = new Array<number>(width).fill(0);
    let biasGradient = 0;
    for (let row = 0; row < features.length; row++) {
      let score = bias;
      for (let column = 0; column < width; column++) score += weights[column] * features[row][column];
      const error = 1 / (1 + Math.exp(-score)) - labels[row];
      for (let column = 0; column < width; column++) gradient[column] += error * features[row][column];
      biasGradient += error;
    }
    for (let column = 0; column < width; column++) weights[column] -= (LOGISTIC_RATE * (gradient[column] + l2 * weights[column])) / count;
    bias -= (LOGISTIC_RATE * biasGradient) / count;
  }
  return { weights, bias };
}
