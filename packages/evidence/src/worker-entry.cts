/**
 * The file piscina loads in each worker thread: CommonJS that imports the ESM worker module.
 * piscina first tries `require(filename)`; on an ESM file that takes Node's require(esm) path,
 * which on Node 20 can abort the whole process ("v8::Module::IsGraphAsync must be used on an
 * instantiated module", seen once in four full test runs). From CommonJS the ESM module is
 * loaded with import(), and piscina awaits the exported promise of its handler.
 */
module.exports = import('./worker.js').then((loaded) => loaded.default);
