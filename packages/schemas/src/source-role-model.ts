/**
 * The learned half of the host's say on source role: a softmax regression over what a host NAME
 * is made of, asked only where the host rules (source-role-host.ts) say little (their votes weigh
 * at most `gate`). It reads the names the rules cannot: made-up brand names of social sites and
 * software projects (`bebo`, `sequelize`), names built on ordinary words that papers, forums and
 * projects use in different proportions, and the public suffix.
 *
 * Features of a host (all 0/1), from its registrable name without the public suffix (`hi5` of
 * `hi5.com`) and its subdomain labels:
 * - `w:WORD`: a word of ROLE_WORDS found inside the name (greedy, longest first: names run words
 *   together, `bakespace` -> `bake`, `space`); `s:WORD` the same inside the first subdomain label;
 * - `cov:N`: how much of the name those words cover, in quarters (0: a made-up name);
 * - `g:NGRAM`: the name's character 3-grams with `^`/`$` at its ends (`^hi`, `hi5`, `i5$`);
 * - `sfx:SUFFIX` the ICANN public suffix (`com`, `co.uk`), `tld:TLD` its last label;
 * - `sub` when the host has a subdomain other than `www.`, `digit`, `dash`, `len:N` the name's
 *   length in fours.
 *
 * The weights are fitted by `npm run train:source-role` (bench/src/signals/train-source-role.ts)
 * on the tuning half of the labelled hosts and written to source-role-model.generated.ts with
 * the settings (gate, threshold, weight) chosen by cross-validation inside that half; no host
 * of the data is written there. What it cannot know: which made-up name is a social network and
 * which a newspaper or a shop. Its vote is as strong as it is sure (`weight` x probability), so
 * `role_confidence` stays low where the name is all it had.
 */
import type { RequirableRole } from './ground.js';
import { hostNameParts, lexiconSegments, longestFirst } from './host-name.js';

/** The roles the model tells apart (the labelled hosts have no aggregator). */
export const MODEL_ROLES = ['official', 'primary', 'secondary', 'ugc'] as const satisfies readonly RequirableRole[];
export type ModelRole = (typeof MODEL_ROLES)[number];

export interface RoleModel {
  /** Feature name -> one weight per role of MODEL_ROLES; features not listed weigh 0. */
  weights: Readonly<Record<string, readonly number[]>>;
  bias: readonly number[];
  /** The model is asked only when the host rules' votes weigh at most this. */
  gate: number;
  /** Its best role votes only at or above this probability. */
  threshold: number;
  /** The vote's weight is this times the probability. */
  weight: number;
}

/**
 * Words host names are built from, by the roles whose names use them: news and broadcasting,
 * software and documentation, community and social, institutions and learning, and the common
 * words of shop, hobby and place names, so that the model can weigh each against the others.
 * General knowledge of how names are made, not a list of sites.
 */
export const ROLE_WORDS: readonly string[] = [
  // news, press, broadcasting
  'news', 'times', 'post', 'daily', 'weekly', 'herald', 'journal', 'press', 'tribune', 'gazette', 'report', 'reporter', 'media',
  'radio', 'tv', 'today', 'online', 'star', 'sun', 'voice', 'observer', 'chronicle', 'courier', 'register', 'sentinel', 'examiner',
  'dispatch', 'telegraph', 'mirror', 'bulletin', 'monitor', 'ledger', 'record', 'review', 'magazine', 'mag', 'wire', 'insider',
  'digest', 'express', 'leader', 'standard', 'globe', 'eagle', 'independent', 'citizen', 'guardian', 'politic', 'politics', 'policy',
  'watch', 'truth', 'patriot', 'freedom', 'liberty', 'nation', 'national', 'america', 'american', 'us', 'world', 'global', 'live',
  'network', 'channel', 'broadcast', 'local', 'county', 'city', 'town', 'state', 'valley', 'north', 'south', 'east', 'west', 'new',
  'free', 'public', 'info', 'current', 'story', 'stories', 'headline', 'editor', 'opinion', 'fact', 'facts', 'journalism', 'noticias',
  'diario', 'zeitung', 'actu', 'presse',
  // software, documentation, code
  'js', 'lang', 'sql', 'db', 'dev', 'docs', 'doc', 'api', 'code', 'hub', 'lab', 'labs', 'soft', 'ware', 'app', 'apps', 'stack',
  'cloud', 'data', 'script', 'lib', 'kit', 'tool', 'tools', 'project', 'framework', 'engine', 'py', 'go', 'rust', 'node', 'web',
  'net', 'cli', 'graph', 'query', 'type', 'test', 'build', 'run', 'io', 'ui', 'css', 'html', 'vue', 'react', 'linux', 'open',
  'source', 'math', 'plot', 'chart', 'map', 'maps', 'lite', 'bin', 'sys', 'tech', 'compute', 'server',
  // community, social, bookmarking
  'my', 'me', 'you', 'your', 'we', 'our', 'friend', 'friends', 'social', 'chat', 'forum', 'forums', 'board', 'boards',
  'talk', 'ask', 'answers', 'club', 'people', 'share', 'link', 'links', 'mark', 'marks', 'tag', 'tags', 'space', 'book', 'face',
  'tube', 'pic', 'pics', 'photo', 'photos', 'vid', 'video', 'fan', 'fans', 'buzz', 'circle', 'tribe', 'meet', 'connect', 'zone',
  'planet', 'life', 'love', 'date', 'dating', 'family', 'student', 'students', 'teen', 'kid', 'kids', 'girl', 'girls', 'guy',
  'mom', 'dad', 'pet', 'pets', 'dog', 'cat', 'music', 'game', 'games', 'play', 'player', 'fun', 'blog', 'blogs', 'list', 'spot',
  'place', 'cafe', 'messenger', 'message', 'mail', 'ring', 'group', 'groups', 'community', 'crowd', 'vote', 'digg', 'dig',
  'favorite', 'favorites', 'hot', 'cool', 'yearbook', 'profile', 'gram', 'tweet', 'ly',
  // institutions, learning, government
  'uni', 'univ', 'university', 'college', 'school', 'institute', 'institut', 'academy', 'poly', 'edu', 'science',
  'sciences', 'research', 'med', 'health', 'law', 'gov', 'dept', 'department', 'office', 'council', 'court', 'agency',
  'authority', 'commission', 'ministry', 'library', 'museum', 'center', 'centre', 'foundation', 'society', 'association', 'org',
  'union', 'saint', 'st',
  // shops, hobbies, places
  'shop', 'store', 'market', 'buy', 'sale', 'home', 'house', 'food', 'recipe', 'recipes', 'bake', 'cook', 'wine', 'travel', 'car',
  'auto', 'sport', 'sports', 'art', 'design', 'style', 'fashion', 'money', 'finance', 'invest', 'bank', 'biz', 'business', 'job',
  'jobs', 'work', 'green', 'climate', 'bio', 'the', 'and', 'of', 'on', 'in', 'a',
];

const WORDS_BY_LENGTH = longestFirst(ROLE_WORDS);

/** One-letter and two-letter words count only at an end of a label (`a` is in every name). */
const SHORT_WORD = 2;

/** The features of a host (see the module comment). `registrableDomain` and `publicSuffix` are the ICANN ones. */
export function roleHostFeatures(host: string, registrableDomain: string, publicSuffix: string): string[] {
  const features = new Set<string>();
  const { name, subLabels } = hostNameParts(host, registrableDomain, publicSuffix);
  features.add(`sfx:${publicSuffix}`);
  features.add(`tld:${publicSuffix.slice(publicSuffix.lastIndexOf('.') + 1)}`);
  if (subLabels.length > 0) features.add('sub');
  if (/[0-9]/.test(name)) features.add('digit');
  if (name.includes('-')) features.add('dash');
  features.add(`len:${Math.min(4, Math.floor(name.length / 4))}`);
  const letters = name.replace(/[^a-z0-9]/g, '');
  const { words, covered } = lexiconSegments(letters, WORDS_BY_LENGTH, SHORT_WORD);
  for (const word of words) features.add(`w:${word}`);
  features.add(`cov:${letters.length === 0 ? 0 : Math.min(3, Math.floor((4 * covered) / letters.length))}`);
  if (subLabels.length > 0) for (const word of lexiconSegments(subLabels[0].replace(/[^a-z0-9]/g, ''), WORDS_BY_LENGTH, SHORT_WORD).words) features.add(`s:${word}`);
  const bounded = `^${letters}$`;
  for (let at = 0; at + 3 <= bounded.length; at++) features.add(`g:${bounded.slice(at, at + 3)}`);
  return [...features];
}

/** The model's probability for each role of MODEL_ROLES. */
export function roleProbabilities(model: RoleModel, features: readonly string[]): number[] {
  const scores = [...model.bias];
  for (const feature of features) {
    const weights = model.weights[feature];
    if (weights === undefined) continue;
    for (let role = 0; role < scores.length; role++) scores[role] += weights[role];
  }
  const top = Math.max(...scores);
  const exps = scores.map((score) => Math.exp(score - top));
  const sum = exps.reduce((total, value) => total + value, 0);
  return exps.map((value) => value / sum);
}

/** The model's vote for a host, or undefined when it is not sure enough (below `threshold`). */
export function roleModelVote(model: RoleModel, features: readonly string[]): { role: ModelRole; weight: number; probability: number } | undefined {
  const probabilities = roleProbabilities(model, features);
  let best = 0;
  for (let role = 1; role < probabilities.length; role++) if (probabilities[role] > probabilities[best]) best = role;
  if (probabilities[best] < model.threshold) return undefined;
  return { role: MODEL_ROLES[best], weight: Math.round(model.weight * probabilities[best] * 100) / 100, probability: probabilities[best] };
}
