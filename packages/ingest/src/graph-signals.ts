/**
 * Graph signals over the host graph (a directed edge A -> B when a page of host A links to host
 * B, A != B, counted once however many links there are):
 *
 * - in_degree: how many distinct other hosts link to the host.
 * - centrality: PageRank (damping 0.85, dangling hosts spread evenly, until the L1 change is
 *   below 1e-9 or 100 iterations), divided by the largest value, so the top host has 1.
 * - community_id: label propagation over the undirected graph (a pair linked both ways counts
 *   twice). Hosts are visited in name order; each takes the label with the largest vote among its
 *   neighbours, keeping its own on a tie that includes it, else the smallest, until nothing changes
 *   or 50 rounds. A neighbour's vote weighs 1 / its degree: with plain votes the hubs that every
 *   host links to pull the whole graph into one community (the demo corpus ends as one); weighted,
 *   topical clusters survive. The id is `c` + 12 hex digits of sha256 of the label's host name,
 *   so the same graph gets the same ids in every run.
 */
import { createHash } from 'node:crypto';

export interface HostSignals {
  inDegree: number;
  centrality: number;
  communityId: string;
}

const DAMPING = 0.85;
const PAGERANK_TOLERANCE = 1e-9;
const PAGERANK_ROUNDS = 100;
const PROPAGATION_ROUNDS = 50;

/** A compact adjacency (CSR): node i's neighbours are targets[offsets[i] .. offsets[i+1]). */
interface Adjacency {
  offsets: Int32Array;
  targets: Int32Array;
}

function adjacency(nodes: number, from: Int32Array, to: Int32Array): Adjacency {
  const offsets = new Int32Array(nodes + 1);
  for (let edge = 0; edge < from.length; edge++) offsets[from[edge] + 1]++;
  for (let node = 0; node < nodes; node++) offsets[node + 1] += offsets[node];
  const cursor = offsets.slice(0, nodes);
  const targets = new Int32Array(from.length);
  for (let edge = 0; edge < from.length; edge++) targets[cursor[from[edge]]++] = to[edge];
  // Sorted rows: sums then run in the same order whatever order the links arrived in.
  for (let node = 0; node < nodes; node++) targets.subarray(offsets[node], offsets[node + 1]).sort();
  return { offsets, targets };
}

/** Votes closer than this are a tie (they are sums of the same fractions in another order). */
const VOTE_EPSILON = 1e-9;

export function pageRank(nodes: number, from: Int32Array, to: Int32Array): Float64Array {
  const outgoing = adjacency(nodes, from, to);
  let rank = new Float64Array(nodes).fill(1 / nodes);
  let next = new Float64Array(nodes);
  for (let round = 0; round < PAGERANK_ROUNDS; round++) {
    let dangling = 0;
    for (let node = 0; node < nodes; node++) if (outgoing.offsets[node + 1] === outgoing.offsets[node]) dangling += rank[node];
    const base = (1 - DAMPING) / nodes + (DAMPING * dangling) / nodes;
    next.fill(base);
    for (let node = 0; node < nodes; node++) {
      const start = outgoing.offsets[node];
      const end = outgoing.offsets[node + 1];
      if (end === start) continue;
      const share = (DAMPING * rank[node]) / (end - start);
      for (let edge = start; edge < end; edge++) next[outgoing.targets[edge]] += share;
    }
    let change = 0;
    for (let node = 0; node < nodes; node++) change += Math.abs(next[node] - rank[node]);
    [rank, next] = [next, rank];
    if (change < PAGERANK_TOLERANCE) break;
  }
  return rank;
}

/** Community labels (node indices); nodes must be numbered in the visiting order. */
export function labelPropagation(nodes: number, from: Int32Array, to: Int32Array): Int32Array {
  const both = new Int32Array(from.length * 2);
  const other = new Int32Array(from.length * 2);
  both.set(from);
  both.set(to, from.length);
  other.set(to);
  other.set(from, from.length);
  const neighbours = adjacency(nodes, both, other);
  const labels = new Int32Array(nodes);
  for (let node = 0; node < nodes; node++) labels[node] = node;
  const voteOf = new Float64Array(nodes);
  for (let node = 0; node < nodes; node++) {
    const degree = neighbours.offsets[node + 1] - neighbours.offsets[node];
    voteOf[node] = degree > 0 ? 1 / degree : 0;
  }
  const weight = new Map<number, number>();
  for (let round = 0; round < PROPAGATION_ROUNDS; round++) {
    let changed = false;
    for (let node = 0; node < nodes; node++) {
      const start = neighbours.offsets[node];
      const end = neighbours.offsets[node + 1];
      if (end === start) continue;
      weight.clear();
      for (let edge = start; edge < end; edge++) {
        const neighbour = neighbours.targets[edge];
        const label = labels[neighbour];
        weight.set(label, (weight.get(label) ?? 0) + voteOf[neighbour]);
      }
      let bestWeight = 0;
      for (const vote of weight.values()) if (vote > bestWeight) bestWeight = vote;
      const current = labels[node];
      if ((weight.get(current) ?? 0) >= bestWeight - VOTE_EPSILON) continue;
      let best = nodes;
      for (const [label, vote] of weight) if (vote >= bestWeight - VOTE_EPSILON && label < best) best = label;
      labels[node] = best;
      changed = true;
    }
    if (!changed) break;
  }
  return labels;
}

function communityIdOf(host: string): string {
  return `c${createHash('sha256').update(host).digest('hex').slice(0, 12)}`;
}

/**
 * Signals of every host in the graph. `hosts` are the node names (any order) and the edges are
 * distinct (from, to) pairs of indices into it.
 */
export function computeHostSignals(hosts: readonly string[], from: Int32Array, to: Int32Array): Map<string, HostSignals> {
  const nodes = hosts.length;
  const signals = new Map<string, HostSignals>();
  if (nodes === 0) return signals;
  // Number the nodes in name order, so the result does not depend on the order links arrived in.
  const order = Array.from({ length: nodes }, (_, index) => index).sort((left, right) => (hosts[left] < hosts[right] ? -1 : hosts[left] > hosts[right] ? 1 : 0));
  const position = new Int32Array(nodes);
  for (let rank = 0; rank < nodes; rank++) position[order[rank]] = rank;
  const sortedFrom = new Int32Array(from.length);
  const sortedTo = new Int32Array(to.length);
  for (let edge = 0; edge < from.length; edge++) {
    sortedFrom[edge] = position[from[edge]];
    sortedTo[edge] = position[to[edge]];
  }
  const inDegree = new Int32Array(nodes);
  for (let edge = 0; edge < sortedTo.length; edge++) inDegree[sortedTo[edge]]++;
  const rank = pageRank(nodes, sortedFrom, sortedTo);
  let largest = 0;
  for (let node = 0; node < nodes; node++) largest = Math.max(largest, rank[node]);
  const labels = labelPropagation(nodes, sortedFrom, sortedTo);
  const communityIds = new Map<number, string>();
  for (let node = 0; node < nodes; node++) {
    const label = labels[node];
    let communityId = communityIds.get(label);
    if (communityId === undefined) {
      communityId = communityIdOf(hosts[order[label]]);
      communityIds.set(label, communityId);
    }
    signals.set(hosts[order[node]], {
      inDegree: inDegree[node],
      centrality: largest > 0 ? Math.round((rank[node] / largest) * 1e6) / 1e6 : 0,
      communityId,
    });
  }
  return signals;
}
