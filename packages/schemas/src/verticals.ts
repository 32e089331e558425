/**
 * The default taxonomy of derived verticals: what ingest assigns (`packages/ingest/src/signals/
 * vertical.ts`) to a page whose record names no vertical, and what /describe lists as the
 * taxonomy. Each vertical is one of the 14 top-level categories of Curlie (ex-DMOZ), renamed where
 * the service already had a name for it (Computers is `code`, Reference is `education`) and less
 * Kids_and_Teens, which is an audience rather than a topic. A page that gives no grounds keeps
 * `general`. A JSONL record may carry any vertical string of its own (the demo corpus uses
 * news, science, code, cooking, health, finance, sports, travel, law, education); a record's
 * value always wins, so both kinds coexist in one index and the router counts them alike.
 */

export const GENERAL_VERTICAL = 'general';

export interface VerticalDefinition {
  /** The vertical's name, as passages carry it and the `vertical` parameter names it. */
  name: string;
  /** The Curlie top-level category it stands for (how it is measured). */
  curlie: string;
  description: string;
}

export const DERIVED_VERTICALS: readonly VerticalDefinition[] = [
  { name: 'arts', curlie: 'Arts', description: 'music, film, television, literature, visual and performing arts, entertainment' },
  { name: 'business', curlie: 'Business', description: 'companies, industry, trade, finance, jobs and business services' },
  { name: 'code', curlie: 'Computers', description: 'software, programming, computers, the internet and information technology' },
  { name: 'games', curlie: 'Games', description: 'video, board, card and online games' },
  { name: 'health', curlie: 'Health', description: 'medicine, health care, conditions, treatments and wellbeing' },
  { name: 'home', curlie: 'Home', description: 'home and garden, cooking and recipes, family and parenting' },
  { name: 'news', curlie: 'News', description: 'news outlets, current events, journalism' },
  { name: 'recreation', curlie: 'Recreation', description: 'travel, the outdoors, hobbies, pets, vehicles, food and drink' },
  { name: 'education', curlie: 'Reference', description: 'education, schools and universities, libraries, dictionaries and other reference works' },
  { name: 'science', curlie: 'Science', description: 'the natural and social sciences and research' },
  { name: 'shopping', curlie: 'Shopping', description: 'shops, online stores and retail' },
  { name: 'society', curlie: 'Society', description: 'law, government and politics, religion, people, organisations and social issues' },
  { name: 'sports', curlie: 'Sports', description: 'sports, teams, leagues, athletes and fitness' },
];
