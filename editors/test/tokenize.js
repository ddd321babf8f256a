// Tokenizes .pkt files with the TextMate engine VS Code uses and prints, as
// JSON, every token of every line with its scopes:
//   node tokenize.js GRAMMAR FILE... > tokens.json
// Used by compiler/tests/editor_grammar.rs, which makes the assertions.
'use strict';

const fs = require('fs');
const oniguruma = require('vscode-oniguruma');
const textmate = require('vscode-textmate');

async function main() {
  const [grammarPath, ...files] = process.argv.slice(2);
  const wasm = fs.readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm'));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new textmate.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (sources) => new oniguruma.OnigScanner(sources),
      createOnigString: (s) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async () =>
      textmate.parseRawGrammar(fs.readFileSync(grammarPath, 'utf8'), grammarPath),
  });
  const grammar = await registry.loadGrammar('source.pkt');
  const out = [];
  for (const file of files) {
    let state = textmate.INITIAL;
    const tokens = [];
    const lines = fs.readFileSync(file, 'utf8').split(/\r?\n/);
    lines.forEach((line, i) => {
      const r = grammar.tokenizeLine(line, state);
      for (const t of r.tokens) {
        tokens.push({ line: i + 1, text: line.slice(t.startIndex, t.endIndex), scopes: t.scopes });
      }
      state = r.ruleStack;
    });
    out.push({ file, tokens });
  }
  process.stdout.write(JSON.stringify(out));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
