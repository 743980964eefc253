// eld ships as an ES module only (its package exports answer `import`, not `require`). This file is plain
// CommonJS that the TypeScript compilers leave alone, so the `import()` below stays a real dynamic import, in the
// service (Node loads the module) and under Jest (its ES module loader, which `npm test` enables).
// The `medium` model: 60 languages, accurate on the short texts of requests, about 1 MB of n-grams.
module.exports = function loadEld() {
  return import('eld/medium').then((m) => m.eld);
};
