/**
 * The fixed host table of the demo corpus: a few hundred hosts with trust levels (official,
 * primary, secondary, aggregator, ugc, plus low-trust spam, mirrors and adult hosts), languages,
 * owners (media groups, wire services) and the registrable domains they sit under.
 *
 * The table does not depend on the seed, so DEMO_OWNERS can be a constant.
 */
import { unitHash } from './prng.js';
import type { ContentTypeName } from '@evidence/schemas';
import type { HostKind, Lang, Role, Vertical } from './types.js';
import { VERTICALS } from './types.js';

export interface HostInfo {
  host: string;
  /** Display name (outlet, agency, site). */
  name: string;
  kind: HostKind;
  role: Role;
  verticals: Vertical[];
  lang: Lang;
  /** Host trust prior, 0..1, stable per host. */
  rank: number;
  /** Media group / wire / company owning the registrable domain, when known. */
  owner?: string;
  regDomain: string;
  tld: string;
  types: ContentTypeName[];
  /** Low trust: host_rank < 0.2. */
  lowTrust: boolean;
}

/** Multi-label public suffixes used by the table (enough for a registrable-domain guess). */
const MULTI_SUFFIXES = new Set(['co.uk', 'ac.uk', 'gov.uk', 'org.uk', 'gouv.fr', 'gob.es', 'com.au', 'co.jp']);

export function registrableDomain(host: string): string {
  const parts = host.toLowerCase().split('.');
  if (parts.length <= 2) return parts.join('.');
  const last2 = parts.slice(-2).join('.');
  if (MULTI_SUFFIXES.has(last2)) return parts.slice(-3).join('.');
  return last2;
}

export function tldOf(host: string): string {
  const parts = host.toLowerCase().split('.');
  const last2 = parts.slice(-2).join('.');
  if (parts.length > 2 && MULTI_SUFFIXES.has(last2)) return last2;
  return parts[parts.length - 1];
}

const ROLE_OF: Record<HostKind, Role> = {
  gov: 'official',
  edu: 'official',
  court: 'official',
  regulator: 'official',
  docs: 'primary',
  academic: 'primary',
  code: 'primary',
  newsroom: 'primary',
  news: 'secondary',
  wire: 'secondary',
  releasewire: 'secondary',
  reference: 'secondary',
  magazine: 'secondary',
  aggregator: 'aggregator',
  forum: 'ugc',
  qa: 'ugc',
  social: 'ugc',
  video: 'ugc',
  mirror: 'secondary',
  spam: 'secondary',
  adult: 'ugc',
};

const RANK_RANGE: Record<HostKind, [number, number]> = {
  gov: [0.88, 0.98],
  edu: [0.82, 0.95],
  court: [0.9, 0.98],
  regulator: [0.86, 0.96],
  docs: [0.78, 0.93],
  academic: [0.72, 0.9],
  code: [0.66, 0.86],
  newsroom: [0.58, 0.78],
  news: [0.55, 0.86],
  wire: [0.82, 0.92],
  releasewire: [0.45, 0.6],
  reference: [0.6, 0.82],
  magazine: [0.32, 0.62],
  aggregator: [0.3, 0.5],
  forum: [0.22, 0.5],
  qa: [0.3, 0.56],
  social: [0.2, 0.4],
  video: [0.25, 0.45],
  mirror: [0.2, 0.3],
  spam: [0.03, 0.18],
  adult: [0.2, 0.34],
};

const TYPES_OF: Record<HostKind, ContentTypeName[]> = {
  gov: ['reference', 'document', 'news', 'how-to'],
  edu: ['academic', 'reference', 'news', 'document'],
  court: ['document', 'document', 'reference'],
  regulator: ['document', 'news', 'reference', 'how-to'],
  docs: ['docs', 'docs', 'reference', 'how-to'],
  academic: ['academic', 'academic', 'document'],
  code: ['code', 'code', 'docs'],
  newsroom: ['news', 'document', 'product'],
  news: ['news', 'news', 'news', 'article', 'opinion', 'video'],
  wire: ['news'],
  releasewire: ['news'],
  reference: ['reference', 'reference', 'article'],
  magazine: ['article', 'how-to', 'article', 'opinion', 'video'],
  aggregator: ['news'],
  forum: ['forum'],
  qa: ['qa'],
  social: ['forum', 'opinion', 'video'],
  video: ['video'],
  mirror: ['article'],
  spam: ['article', 'product', 'opinion'],
  adult: ['forum', 'video'],
};

// host | name | kind | verticals ('*' = all) | lang | owner
const CURATED = `
www.fda.gov|U.S. Food and Drug Administration|regulator|health cooking|en|
www.cdc.gov|Centers for Disease Control and Prevention|gov|health|en|
www.nih.gov|National Institutes of Health|gov|health science|en|
www.who.int|World Health Organization|gov|health news|en|
www.sec.gov|U.S. Securities and Exchange Commission|regulator|finance|en|
www.federalreserve.gov|Federal Reserve Board|regulator|finance|en|
www.bls.gov|Bureau of Labor Statistics|gov|finance news|en|
www.treasury.gov|U.S. Department of the Treasury|gov|finance|en|
www.ecb.europa.eu|European Central Bank|regulator|finance|en|
www.imf.org|International Monetary Fund|gov|finance news|en|
www.supremecourt.gov|Supreme Court of the United States|court|law|en|
www.uscourts.gov|United States Courts|court|law|en|
www.justice.gov|U.S. Department of Justice|gov|law news|en|
www.ftc.gov|Federal Trade Commission|regulator|law finance|en|
curia.europa.eu|Court of Justice of the European Union|court|law|en|
www.judiciary.uk|Courts and Tribunals Judiciary|court|law|en|
www.nasa.gov|NASA|gov|science news|en|
www.noaa.gov|National Oceanic and Atmospheric Administration|gov|science news|en|
www.weather.gov|National Weather Service|gov|news travel|en|
www.nsf.gov|National Science Foundation|gov|science education|en|
www.nist.gov|National Institute of Standards and Technology|gov|code science|en|
www.cisa.gov|Cybersecurity and Infrastructure Security Agency|gov|code|en|
www.ed.gov|U.S. Department of Education|gov|education|en|
nces.ed.gov|National Center for Education Statistics|gov|education|en|
travel.state.gov|U.S. Department of State Travel|gov|travel|en|
www.nps.gov|National Park Service|gov|travel science|en|
www.tsa.gov|Transportation Security Administration|gov|travel|en|
www.usda.gov|U.S. Department of Agriculture|gov|cooking health|en|
www.foodsafety.gov|FoodSafety.gov|gov|cooking|en|
www.usada.org|U.S. Anti-Doping Agency|regulator|sports health|en|
www.wada-ama.org|World Anti-Doping Agency|regulator|sports|en|
www.nhs.uk|National Health Service|gov|health|en|
www.gov.uk|GOV.UK|gov|law finance travel education|en|
www.ons.gov.uk|Office for National Statistics|gov|finance news|en|
www.food.gov.uk|Food Standards Agency|regulator|cooking|en|
www.bankofengland.co.uk|Bank of England|regulator|finance|en|
www.fca.org.uk|Financial Conduct Authority|regulator|finance|en|
www.mit.edu|Massachusetts Institute of Technology|edu|science code education|en|
www.stanford.edu|Stanford University|edu|science code education|en|
www.harvard.edu|Harvard University|edu|health law education|en|
www.berkeley.edu|University of California, Berkeley|edu|science education|en|
law.cornell.edu|Legal Information Institute|edu|law|en|
www.ox.ac.uk|University of Oxford|edu|science education health|en|
www.cam.ac.uk|University of Cambridge|edu|science education|en|
www.ucl.ac.uk|University College London|edu|health science education|en|
www.ed.ac.uk|University of Edinburgh|edu|science education|en|
doc.rust-lang.org|The Rust Programming Language|docs|code|en|
docs.rs|Docs.rs|docs|code|en|
docs.python.org|Python Documentation|docs|code|en|
developer.mozilla.org|MDN Web Docs|docs|code|en|
nodejs.org|Node.js|docs|code|en|
kubernetes.io|Kubernetes|docs|code|en|
www.postgresql.org|PostgreSQL|docs|code|en|
docs.ferrocode.io|Ferrocode Docs|docs|code|en|Ferrocode
github.com|GitHub|code|code|en|
gitlab.com|GitLab|code|code|en|
codeberg.org|Codeberg|code|code|en|
bitbucket.org|Bitbucket|code|code|en|
git.sr.ht|sourcehut|code|code|en|
arxiv.org|arXiv|academic|science code finance|en|
www.biorxiv.org|bioRxiv|academic|science health|en|
www.medrxiv.org|medRxiv|academic|health|en|
journals.plos.org|PLOS|academic|science health|en|
www.openjournals-science.org|Open Journals of Science|academic|science|en|
www.ssrn.com|SSRN|academic|finance law|en|
www.nber.org|National Bureau of Economic Research|academic|finance|en|
www.lawreview-archive.org|Law Review Archive|academic|law|en|
www.eric-archive.org|Education Research Archive|academic|education|en|
www.clinicaltrials-registry.org|Clinical Trials Registry|academic|health|en|
newsroom.helixbio.com|Helix Biologics Newsroom|newsroom|health|en|Helix Biologics
news.northwindbank.com|Northwind Bank News|newsroom|finance|en|Northwind Bank
blog.ferrocode.io|Ferrocode Blog|newsroom|code|en|Ferrocode
www.voltaris-motors.de|Voltaris Motors|newsroom|science|en|Voltaris Motors
www.meridianfoods.com|Meridian Foods|newsroom|cooking|en|Meridian Foods
newsroom.skylineair.com|Skyline Air Newsroom|newsroom|travel|en|Skyline Air
news.orbitaldynamics.com|Orbital Dynamics News|newsroom|science|en|Orbital Dynamics
press.lexiconlegal.com|Lexicon Legal Press|newsroom|law|en|Lexicon Legal
newsroom.brightpath.org|Brightpath Learning Newsroom|newsroom|education|en|Brightpath Learning
media.apexsportsgroup.com|Apex Sports Group Media|newsroom|sports|en|Apex Sports Group
www.nationalbasketballleague.com|National Basketball League|newsroom|sports|en|National Basketball League
www.visitlisbon.org|Visit Lisbon|newsroom|travel|en|
www.associatedwire.com|Associated Wire|wire|news finance health science sports law|en|Associated Wire
www.meridianpress.net|Meridian Press|wire|news finance health science sports law|en|Meridian Press
www.globaldispatch.org|Global Dispatch Service|wire|news finance science sports|en|Global Dispatch Service
www.newsreleasewire.com|NewsRelease Wire|releasewire|*|en|NewsRelease Wire
www.businesspresswire.net|BusinessPress Wire|releasewire|*|en|BusinessPress Wire
www.prdistribution.io|PR Distribution|releasewire|*|en|PR Distribution Network
www.metrotribune.com|The Metro Tribune|news|news finance sports law education|en|Harbor Media Group
www.coastalpost.com|The Coastal Post|news|news travel science health|en|Harbor Media Group
www.valleyledger.com|The Valley Ledger|news|news finance education|en|Harbor Media Group
www.harborbusinessdaily.com|Harbor Business Daily|news|finance news|en|Harbor Media Group
www.northstarherald.com|The Northstar Herald|news|news health science law|en|Northstar Media
www.dailyexaminer.co.uk|The Daily Examiner|news|news finance sports|en|Northstar Media
www.capitalchronicle.net|Capital Chronicle|news|news law finance|en|Northstar Media
www.northstarsport.com|Northstar Sport|news|sports|en|Northstar Media
www.pinecrestgazette.com|The Pinecrest Gazette|news|news education health|en|Pinecrest Publishing
www.thehealthdesk.org|The Health Desk|news|health|en|Pinecrest Publishing
www.scienceweeklyreview.com|Science Weekly Review|news|science|en|Pinecrest Publishing
www.thebaypioneer.com|The Bay Pioneer|news|news travel|en|The Bay Pioneer
www.riverbendtimes.com|Riverbend Times|news|news sports education|en|Riverbend Times
www.globalobserver.net|The Global Observer|news|news finance science health|en|Global Observer Media
www.thecitylantern.com|The City Lantern|news|news law|en|The City Lantern
www.midlandsreporter.co.uk|Midlands Reporter|news|news sports|en|Midlands Reporter
www.thepolicyreview.org|The Policy Review|news|law education finance|en|The Policy Review
www.techcircuitnews.io|Tech Circuit News|news|code science|en|Tech Circuit News
www.marketpulse.net|Market Pulse|news|finance|en|Market Pulse
www.courtwatchreport.com|Court Watch Report|news|law|en|Court Watch Report
www.campusdispatch.org|Campus Dispatch|news|education|en|Campus Dispatch
www.stadiumreport.com|Stadium Report|news|sports|en|Stadium Report
www.wanderlustjournal.com|Wanderlust Journal|magazine|travel|en|Wanderlust Journal
www.labnotesmagazine.com|Lab Notes Magazine|magazine|science|en|Lab Notes Magazine
www.kitchenchronicle.com|Kitchen Chronicle|magazine|cooking|en|Kitchen Chronicle
www.openencyclopedia.org|Open Encyclopedia|reference|*|en|
www.factfinder-reference.net|FactFinder Reference|reference|*|en|
www.medguide-reference.org|MedGuide Reference|reference|health|en|
www.moneyterms.org|MoneyTerms|reference|finance|en|
www.legaldictionary-online.com|Legal Dictionary Online|reference|law|en|
www.worldatlasguide.com|World Atlas Guide|reference|travel|en|
www.codeglossary.dev|Code Glossary|reference|code|en|
www.sciencefacts.org|ScienceFacts|reference|science|en|
news.headlinehub.com|Headline Hub|aggregator|news finance sports health science|en|Headline Hub Inc.
www.topstoriesdaily.net|Top Stories Daily|aggregator|news finance sports|en|Top Stories Daily
www.newsroundup.io|News Roundup|aggregator|news science health|en|Headline Hub Inc.
www.feedlines.org|Feedlines|aggregator|news law education|en|Feedlines
www.dailydigestnews.com|Daily Digest News|aggregator|news travel|en|Daily Digest Media
www.askcoders.net|AskCoders|qa|code|en|
www.devanswers.io|DevAnswers|qa|code|en|
forum.breadbakers.org|Bread Bakers Forum|forum|cooking|en|
www.healthtalkforum.com|Health Talk Forum|forum|health|en|
www.travelerscorner.net|Travelers Corner|forum|travel|en|
www.fanzoneforum.com|Fan Zone Forum|forum|sports|en|
www.lawquestions.org|Law Questions|qa|law|en|
www.studyhallforum.org|Study Hall Forum|forum|education|en|
www.investorboards.com|Investor Boards|forum|finance|en|
www.sciencechat.org|Science Chat|forum|science|en|
www.askanything.net|Ask Anything|qa|*|en|
social.chirper.io|Chirper|social|*|en|
www.threadly.com|Threadly|social|*|en|
www.videoshare.net|VideoShare|video|*|en|
www.clipstream.tv|ClipStream|video|*|en|
best-health-secrets.net|Best Health Secrets|spam|health|en|
miracle-cures.org|Miracle Cures|spam|health|en|
crypto-profit-now.io|Crypto Profit Now|spam|finance|en|
free-recipes-4u.com|Free Recipes 4U|spam|cooking|en|
top10-travel-deals.net|Top10 Travel Deals|spam|travel|en|
cheap-essays-online.com|Cheap Essays Online|spam|education|en|
law-loopholes.net|Law Loopholes|spam|law|en|
sports-betting-tips.io|Sports Betting Tips|spam|sports|en|
seo-content-farm.com|SEO Content Farm|spam|*|en|
news-blast24.net|News Blast 24|spam|news|en|
gadget-deal-alerts.com|Gadget Deal Alerts|spam|code|en|
click-science-wow.net|Click Science Wow|spam|science|en|
mirror.webcopy-archive.net|WebCopy Archive Mirror|mirror|*|en|
www.pagemirror.org|PageMirror|mirror|*|en|
cache.sitecopy.io|SiteCopy Cache|mirror|*|en|
www.afterdark-forum.net|Afterdark Forum|adult|*|en|
www.velvetlounge-chat.com|Velvet Lounge Chat|adult|*|en|
www.tageskurier.de|Tageskurier|news|news finance health|de|Rheinland Mediengruppe
www.finanzblatt.de|Finanzblatt|news|finance|de|Rheinland Mediengruppe
www.sportecho.de|Sportecho|news|sports|de|Rheinland Mediengruppe
www.kochwelt-magazin.de|Kochwelt Magazin|magazine|cooking|de|
www.reisezeit-magazin.de|Reisezeit Magazin|magazine|travel|de|
www.gesundheitsratgeber.de|Gesundheitsratgeber|reference|health|de|
www.bundesbank.de|Deutsche Bundesbank|regulator|finance|de|
www.rki.de|Robert Koch-Institut|gov|health|de|
www.destatis.de|Statistisches Bundesamt|gov|finance news|de|
www.dwd.de|Deutscher Wetterdienst|gov|news travel|de|
www.kochforum.de|Kochforum|forum|cooking|de|
www.reiseforum-online.de|Reiseforum Online|forum|travel|de|
www.gratis-gewinne24.de|Gratis Gewinne 24|spam|news finance|de|
www.lequotidien-national.fr|Le Quotidien National|news|news finance health|fr|Groupe Lumière
www.lecourrierdunord.fr|Le Courrier du Nord|news|news travel|fr|Groupe Lumière
www.sportsmatin.fr|Sports Matin|news|sports|fr|Groupe Lumière
www.cuisine-et-saveurs.fr|Cuisine et Saveurs|magazine|cooking|fr|
www.voyages-en-france.fr|Voyages en France|magazine|travel|fr|
www.insee.fr|INSEE|gov|finance news|fr|
www.banque-france.fr|Banque de France|regulator|finance|fr|
www.sante.gouv.fr|Ministère de la Santé|gov|health|fr|
www.meteofrance.fr|Météo-France|gov|news travel|fr|
www.forum-cuisine.fr|Forum Cuisine|forum|cooking|fr|
www.lecoindesvoyageurs.fr|Le Coin des Voyageurs|forum|travel|fr|
www.eldiariodelsur.es|El Diario del Sur|news|news health travel|es|Grupo Meridiano
www.mercadosaldia.es|Mercados al Día|news|finance|es|Grupo Meridiano
www.deportesya.es|Deportes Ya|news|sports|es|
www.recetasdecasa.es|Recetas de Casa|magazine|cooking|es|
www.viajarporespana.es|Viajar por España|magazine|travel|es|
www.ine.es|Instituto Nacional de Estadística|gov|finance news|es|
www.bde.es|Banco de España|regulator|finance|es|
www.sanidad.gob.es|Ministerio de Sanidad|gov|health|es|
www.aemet.es|AEMET|gov|news travel|es|
www.foro-viajeros.es|Foro Viajeros|forum|travel|es|
www.ofertas-milagro.es|Ofertas Milagro|spam|health finance|es|
`;

/** Word lists for the generated blogs, magazines and forums of each vertical. */
const GENERATED: Record<Vertical, [string[], string[]]> = {
  news: [
    ['daily', 'evening', 'morning', 'civic', 'metro', 'county', 'harbor', 'prairie', 'summit', 'union', 'liberty', 'granite', 'ridge', 'lakeshore'],
    ['bulletin', 'dispatch', 'courier', 'sentinel', 'record', 'beacon', 'observer', 'journal', 'register', 'gazette', 'monitor', 'clarion', 'ledger', 'tribune'],
  ],
  science: [
    ['quantum', 'stellar', 'curious', 'open', 'deep', 'bright', 'lab', 'field', 'orbital', 'cellular', 'polar', 'atomic', 'tidal', 'fossil'],
    ['notebook', 'frontier', 'matters', 'signal', 'report', 'digest', 'review', 'horizon', 'bench', 'lens', 'spectrum', 'cosmos', 'element', 'pulse'],
  ],
  code: [
    ['null', 'async', 'rusty', 'lazy', 'static', 'binary', 'mutable', 'pure', 'strict', 'shallow', 'tiny', 'green', 'fast', 'bit'],
    ['pointer', 'thread', 'bytes', 'loop', 'stack', 'cache', 'lambda', 'compiler', 'kernel', 'shell', 'commit', 'branch', 'module', 'socket'],
  ],
  cooking: [
    ['salty', 'golden', 'rustic', 'hungry', 'crusty', 'spicy', 'humble', 'busy', 'cozy', 'smoky', 'tiny', 'wild', 'sunday', 'midnight'],
    ['kitchen', 'skillet', 'pantry', 'spoon', 'oven', 'table', 'crumb', 'ladle', 'apron', 'hearth', 'larder', 'whisk', 'platter', 'stove'],
  ],
  health: [
    ['healthy', 'mindful', 'active', 'balanced', 'steady', 'calm', 'vital', 'gentle', 'strong', 'clear', 'well', 'everyday', 'whole', 'sunrise'],
    ['heart', 'clinic', 'pulse', 'habit', 'body', 'checkup', 'remedy', 'wellness', 'recovery', 'lifestyle', 'patient', 'nurse', 'dose', 'care'],
  ],
  finance: [
    ['frugal', 'savvy', 'bullish', 'prudent', 'wealthy', 'steady', 'compound', 'margin', 'capital', 'yield', 'dividend', 'ledger', 'market', 'fiscal'],
    ['investor', 'wallet', 'portfolio', 'money', 'saver', 'ticker', 'broker', 'vault', 'penny', 'budget', 'fund', 'desk', 'street', 'exchange'],
  ],
  sports: [
    ['final', 'fast', 'golden', 'home', 'full', 'extra', 'open', 'grand', 'bench', 'long', 'red', 'blue', 'iron', 'wild'],
    ['whistle', 'goal', 'pitch', 'court', 'lap', 'inning', 'sprint', 'podium', 'dugout', 'arena', 'scoreboard', 'touchline', 'huddle', 'relay'],
  ],
  travel: [
    ['wandering', 'nomad', 'lost', 'slow', 'budget', 'roaming', 'coastal', 'alpine', 'open', 'weekend', 'wild', 'hidden', 'happy', 'sunny'],
    ['traveler', 'compass', 'passport', 'suitcase', 'backpack', 'trail', 'map', 'journey', 'voyage', 'road', 'atlas', 'postcard', 'detour', 'harbor'],
  ],
  law: [
    ['legal', 'civil', 'fair', 'plain', 'common', 'just', 'lawful', 'open', 'modern', 'practical', 'public', 'federal', 'local', 'daily'],
    ['counsel', 'brief', 'docket', 'statute', 'verdict', 'clause', 'advocate', 'bench', 'gavel', 'record', 'lawyer', 'case', 'ruling', 'tribunal'],
  ],
  education: [
    ['bright', 'curious', 'smart', 'open', 'eager', 'lifelong', 'clever', 'young', 'honor', 'campus', 'active', 'digital', 'happy', 'modern'],
    ['classroom', 'scholar', 'learner', 'chalkboard', 'student', 'teacher', 'pupil', 'tutor', 'syllabus', 'quad', 'notebook', 'library', 'lesson', 'academy'],
  ],
};

const GENERATED_TLDS = ['com', 'net', 'org', 'com', 'io', 'co.uk', 'com', 'org', 'net', 'com'];

function titleCase(text: string): string {
  return text.replace(/\b[a-z]/g, (letter) => letter.toUpperCase());
}

function makeHost(host: string, name: string, kind: HostKind, verticals: Vertical[], lang: Lang, owner?: string): HostInfo {
  const [lowRank, highRank] = RANK_RANGE[kind];
  const rank = Math.round((lowRank + (highRank - lowRank) * unitHash(host)) * 1000) / 1000;
  let types = TYPES_OF[kind];
  if (kind === 'magazine' && verticals.includes('cooking')) types = ['how-to', 'how-to', 'article', 'video'];
  if (kind === 'news' && verticals.length === 1 && verticals[0] === 'sports') types = ['news', 'news', 'article', 'video'];
  const info: HostInfo = {
    host,
    name,
    kind,
    role: ROLE_OF[kind],
    verticals,
    lang,
    rank,
    regDomain: registrableDomain(host),
    tld: tldOf(host),
    types,
    lowTrust: rank < 0.2,
  };
  if (owner) info.owner = owner;
  return info;
}

function buildHosts(): HostInfo[] {
  const hosts: HostInfo[] = [];
  for (const line of CURATED.split('\n')) {
    if (!line.trim()) continue;
    const [host, name, kind, verticalList, lang, owner] = line.split('|');
    const verticals = verticalList === '*' ? [...VERTICALS] : (verticalList.split(' ') as Vertical[]);
    hosts.push(makeHost(host, name, kind as HostKind, verticals, lang as Lang, owner || undefined));
  }
  for (const vertical of VERTICALS) {
    const [adjectives, nouns] = GENERATED[vertical];
    for (let i = 0; i < adjectives.length; i++) {
      const adjective = adjectives[i];
      const noun = nouns[(i * 5 + 3) % nouns.length];
      const topLevelDomain = GENERATED_TLDS[(i + vertical.length) % GENERATED_TLDS.length];
      if (i < 10) {
        const host = `www.the${adjective}${noun}.${topLevelDomain}`;
        const name = `The ${titleCase(adjective)} ${titleCase(noun)}`;
        const kind: HostKind = vertical === 'news' ? 'news' : 'magazine';
        hosts.push(makeHost(host, name, kind, [vertical], 'en', vertical === 'news' ? name : undefined));
      } else {
        const host = `forum.${adjective}${noun}.${i % 2 === 0 ? 'org' : 'net'}`;
        hosts.push(makeHost(host, `${titleCase(adjective)} ${titleCase(noun)} Forum`, i === 13 ? 'qa' : 'forum', [vertical], 'en'));
      }
    }
  }
  const seen = new Set<string>();
  for (const info of hosts) {
    if (seen.has(info.host)) throw new Error(`duplicate demo host ${info.host}`);
    seen.add(info.host);
  }
  return hosts;
}

export const HOSTS: readonly HostInfo[] = buildHosts();

export const HOST_BY_NAME: ReadonlyMap<string, HostInfo> = new Map(HOSTS.map((h) => [h.host, h]));

export function hostNamed(name: string): HostInfo {
  const info = HOST_BY_NAME.get(name);
  if (!info) throw new Error(`unknown demo host ${name}`);
  return info;
}

/**
 * Registrable domain -> owner (media group, wire service, release wire, aggregator operator or
 * company) for every owned outlet in the table.
 */
export const DEMO_OWNERS: Record<string, string> = (() => {
  const owners: Record<string, string> = {};
  for (const info of HOSTS) if (info.owner) owners[info.regDomain] = info.owner;
  return owners;
})();

/** Wire services with their dateline style. */
export interface WireService {
  host: HostInfo;
  name: string;
  abbr: string;
  /** 'short': `CITY (AW) — `; 'long': `CITY, Month D (Meridian Press) - ` */
  style: 'short' | 'long';
}

export const WIRES: readonly WireService[] = [
  { host: hostNamed('www.associatedwire.com'), name: 'Associated Wire', abbr: 'AW', style: 'short' },
  { host: hostNamed('www.meridianpress.net'), name: 'Meridian Press', abbr: 'Meridian Press', style: 'long' },
  { host: hostNamed('www.globaldispatch.org'), name: 'Global Dispatch Service', abbr: 'GDS', style: 'short' },
];

export const RELEASE_WIRES: readonly HostInfo[] = HOSTS.filter((h) => h.kind === 'releasewire');
export const MIRROR_HOSTS: readonly HostInfo[] = HOSTS.filter((h) => h.kind === 'mirror');
export const ADULT_HOSTS: readonly HostInfo[] = HOSTS.filter((h) => h.kind === 'adult');
export const AGGREGATORS: readonly HostInfo[] = HOSTS.filter((h) => h.kind === 'aggregator');

/** English news outlets (carry wire stories, report press releases, republish). */
export const NEWS_OUTLETS: readonly HostInfo[] = HOSTS.filter((h) => h.kind === 'news' && h.lang === 'en');

/** Media groups that own more than one English outlet. */
export const MEDIA_GROUPS: ReadonlyMap<string, HostInfo[]> = (() => {
  const groups = new Map<string, HostInfo[]>();
  for (const outlet of NEWS_OUTLETS) {
    if (!outlet.owner) continue;
    const list = groups.get(outlet.owner) ?? [];
    list.push(outlet);
    groups.set(outlet.owner, list);
  }
  for (const [owner, members] of groups) if (members.length < 2) groups.delete(owner);
  return groups;
})();

/** Heavily linked hosts and their link weight. */
export const HUB_WEIGHTS: ReadonlyArray<[string, number]> = [
  ['www.openencyclopedia.org', 12],
  ['github.com', 10],
  ['doc.rust-lang.org', 10],
  ['www.fda.gov', 10],
  ['www.federalreserve.gov', 10],
  ['developer.mozilla.org', 9],
  ['arxiv.org', 9],
  ['www.cdc.gov', 8],
  ['www.who.int', 8],
  ['www.supremecourt.gov', 8],
  ['www.associatedwire.com', 7],
  ['www.nasa.gov', 7],
  ['docs.python.org', 7],
  ['www.nih.gov', 6],
  ['www.sec.gov', 6],
  ['www.nps.gov', 6],
  ['travel.state.gov', 6],
  ['www.ed.gov', 6],
  ['www.ox.ac.uk', 6],
  ['www.gov.uk', 6],
  ['www.ecb.europa.eu', 5],
  ['www.uscourts.gov', 5],
  ['www.mit.edu', 5],
  ['www.usda.gov', 5],
  ['www.kitchenchronicle.com', 5],
  ['www.metrotribune.com', 4],
  ['www.usada.org', 4],
  ['www.stadiumreport.com', 4],
  ['www.campusdispatch.org', 3],
];
