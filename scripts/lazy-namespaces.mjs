// esbuild gives each module that an import() or the other CLI file reaches a namespace object, and
// fills it at the bundle's top level: a getter closure and a defineProperty per export, for some 65
// modules and 300 exports at every start (about 100 KB of the young generation, which one start
// nearly fills), though only dist/cli-rest.cjs (`__jobsModules`) and import() read most of them.
// lazyNamespaces() fills such a namespace at its first read instead. It knows the shapes esbuild
// writes; a namespace used in any other way (`ns.name`) is left as esbuild wrote it.

const HELPERS =
  'var __later=new WeakMap,__exportLater=(target,fill)=>{__later.set(target,fill)},' +
  '__namespace=target=>{let fill=__later.get(target);return fill&&(__later.delete(target),__export(target,fill())),target};';
const TO_COMMONJS = '__toCommonJS=mod=>__copyProps(__defProp({},"__esModule",{value:!0}),mod);';
const NAME = String.raw`[A-Za-z_$][\w$]*`;
const GETTERS = String.raw`\{(?:${NAME}|"[^"\\]*"):\(\)=>${NAME}(?:,(?:${NAME}|"[^"\\]*"):\(\)=>${NAME})*\}`;
const EXPORT = new RegExp(String.raw`__export\((${NAME}),(${GETTERS})\);`, 'g');
const AFTER_INIT = new RegExp(String.raw`\((init_[\w$]+\(\)),(${NAME})\)`, 'g');

const count = (code, text) => code.split(text).length - 1;
const uses = (code, name) => code.match(new RegExp(String.raw`(?<![\w$])${name.replace(/\$/g, '\\$')}(?![\w$])`, 'g'))?.length ?? 0;

/** The bundle's code with its namespaces filled at first read; throws when esbuild's helpers are not as expected. */
export function lazyNamespaces(code, file) {
  if (count(code, TO_COMMONJS) !== 1) throw new Error(`${file}: esbuild no longer writes __toCommonJS as scripts/lazy-namespaces.mjs expects`);
  const afterInit = new Map();
  for (const [, , name] of code.matchAll(AFTER_INIT)) afterInit.set(name, (afterInit.get(name) ?? 0) + 1);
  // Only namespaces whose every use is one of these: declared, filled, read whole.
  const lazy = new Set();
  for (const [, name] of code.matchAll(EXPORT)) {
    const known = count(code, `var ${name}={}`) + count(code, `__export(${name},`) + count(code, `__toCommonJS(${name})`) + (afterInit.get(name) ?? 0);
    if (uses(code, name) === known) lazy.add(name);
  }
  let out = code.replace(EXPORT, (call, name, getters) => (lazy.has(name) ? `__exportLater(${name},()=>(${getters}));` : call));
  out = out.replace(AFTER_INIT, (read, init, name) => (lazy.has(name) ? `(${init},__namespace(${name}))` : read));
  return out.replace(TO_COMMONJS, `${TO_COMMONJS.slice(0, -'mod);'.length)}__namespace(mod));${HELPERS}`);
}
