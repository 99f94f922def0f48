// What the agent's tools read, write and print: made-up source files and command output per language.
import { type DemoProject, type Language, NOUNS, SENTENCES, TYPES, VERBS } from "./demo-content.js";
import type { Random } from "./seeded-random.js";

export const capitalize = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

interface Identifiers {
  noun: string;
  noun2: string;
  verb: string;
}

export function identifiers(random: Random): Identifiers {
  return { noun: random.pick(NOUNS), noun2: random.pick(NOUNS), verb: random.pick(VERBS) };
}

/** How one language spells the few constructs the made-up files are built from. */
interface LanguageStyle {
  comment: (text: string) => string;
  imports: (random: Random) => string;
  open: (names: Identifiers, random: Random) => string;
  body: (names: Identifiers, random: Random) => string;
  close: string;
}

export const STYLES: Record<Language, LanguageStyle> = {
  typescript: {
    comment: (text) => `/** ${text} */`,
    imports: (random) =>
      `import { ${random.pick(VERBS)}${capitalize(random.pick(NOUNS))} } from "./${random.pick(NOUNS)}.js";`,
    open: ({ verb, noun }, random) =>
      `export function ${verb}${capitalize(noun)}(${noun}: ${random.pick(TYPES)}): ${random.pick(TYPES)} {`,
    body: ({ verb, noun, noun2 }, random) =>
      random.pick([
        `  const ${noun2} = ${verb}${capitalize(noun)}(${noun});`,
        `  if (!${noun}) return undefined;`,
        `  for (const ${noun2} of ${noun}s) ${noun2}s.push(${noun2});`,
        `  return { ...${noun}, ${noun2}: ${noun2}s.length };`,
        `  // ${capitalize(noun)}s written by older versions have no ${noun2}.`,
        `  const ${noun2}Bytes = Buffer.byteLength(${noun}.${noun2}, "utf8");`,
      ]),
    close: "}",
  },
  go: {
    comment: (text) => `// ${text}`,
    imports: (random) =>
      `\t"${random.pick(["context", "errors", "fmt", "net/http", "time", "sync", "strconv"])}"`,
    open: ({ verb, noun }) =>
      `func (s *Store) ${capitalize(verb)}${capitalize(noun)}(ctx context.Context, id string) error {`,
    body: ({ verb, noun, noun2 }, random) =>
      random.pick([
        `\t${noun2}, err := s.db.${capitalize(verb)}(ctx, id)`,
        "\tif err != nil {",
        `\t\treturn fmt.Errorf("${verb} ${noun}: %w", err)`,
        "\t}",
        `\tdefer s.mu.Unlock()`,
        `\ts.metrics.${capitalize(noun)}s.Inc()`,
      ]),
    close: "}",
  },
  python: {
    comment: (text) => `    """${text}"""`,
    imports: (random) =>
      `from ${random.pick(["django.db", "pandas", "numpy", "portal", "typing"])} import ${random.pick(NOUNS)}`,
    open: ({ verb, noun }) => `def ${verb}_${noun}(${noun}, *, limit=None):`,
    body: ({ verb, noun, noun2 }, random) =>
      random.pick([
        `    ${noun2} = ${verb}_${noun2}(${noun})`,
        `    if ${noun} is None:`,
        `        return []`,
        `    for ${noun2} in ${noun}.${noun2}s.all():`,
        `        yield ${noun2}`,
        `    logger.info("${verb} %s ${noun}s", len(${noun}))`,
      ]),
    close: "",
  },
  rust: {
    comment: (text) => `/// ${text}`,
    imports: (random) =>
      `use ${random.pick(["std::io", "anyhow::Result", "image::DynamicImage", "crate::cli"])};`,
    open: ({ verb, noun }) => `pub fn ${verb}_${noun}(${noun}: &mut ${capitalize(noun)}) -> Result<()> {`,
    body: ({ verb, noun, noun2 }, random) =>
      random.pick([
        `    let ${noun2} = ${noun}.${verb}()?;`,
        `    if ${noun2}.is_empty() {`,
        `        return Ok(());`,
        "    }",
        `    for row in ${noun}.rows() {`,
        `    ${noun2}.extend_from_slice(&buf[..n]);`,
      ]),
    close: "}",
  },
  shell: {
    comment: (text) => `# ${text}`,
    imports: (random) =>
      `source "$HOME/.config/${random.pick(["zsh", "shell", "tmux"])}/${random.pick(NOUNS)}.zsh"`,
    open: ({ verb, noun }) => `${verb}_${noun}() {`,
    body: ({ verb, noun, noun2 }, random) =>
      random.pick([
        `  local ${noun2}="$1"`,
        `  [ -e "$${noun2}" ] || return 0`,
        `  command -v ${noun} >/dev/null 2>&1 || return 1`,
        `  ln -sfn "$DOTFILES/${noun}" "$HOME/.${noun}"`,
        `  echo "${verb} ${noun}: done"`,
      ]),
    close: "}",
  },
};

/** A plausible source file of about `lines` lines in the project's language. */
export function sourceFile(random: Random, language: Language, lines: number): string {
  const style = STYLES[language];
  const out: string[] = [];
  for (let i = random.int(2, 5); i > 0; i--) out.push(style.imports(random));
  out.push("");
  while (out.length < lines) {
    const names = identifiers(random);
    out.push(style.comment(random.pick(SENTENCES)));
    out.push(style.open(names, random));
    for (let i = random.int(3, 12); i > 0; i--) out.push(style.body(names, random));
    if (style.close) out.push(style.close);
    out.push("");
  }
  return out.join("\n");
}

/** What a command printed: tests, git, linters and the rest, in their usual shapes. */
export function commandOutput(
  random: Random,
  project: DemoProject,
  command: string,
  fail: boolean,
  scale: number,
): string {
  const file = () => random.pick(project.files);
  const count = (min: number, max: number) => random.int(min, Math.max(min, Math.round(max * scale)));
  if (/\b(test|vitest|pytest)\b/.test(command)) {
    const lines: string[] = [];
    for (let i = count(3, 40); i > 0; i--)
      lines.push(`  ✓ ${file()} > ${random.pick(VERBS)}s ${random.pick(NOUNS)}s (${random.int(1, 90)} ms)`);
    if (fail) {
      const where = file();
      lines.push(`  ✗ ${where} > ${random.pick(VERBS)}s the ${random.pick(NOUNS)} when it is empty`);
      lines.push("", `AssertionError: expected ${random.int(0, 9)} to be ${random.int(10, 99)}`);
      for (let i = random.int(3, 8); i > 0; i--)
        lines.push(`    at ${where}:${random.int(10, 400)}:${random.int(3, 40)}`);
      lines.push("", `Tests  1 failed | ${lines.length} passed`);
    } else
      lines.push(
        "",
        `Tests  ${lines.length} passed (${lines.length})`,
        `Duration  ${random.between(0.4, 9).toFixed(2)}s`,
      );
    return lines.join("\n");
  }
  if (command.startsWith("git status")) {
    const lines: string[] = [];
    for (const path of random.sample(project.files, random.int(1, 4)))
      lines.push(` ${random.pick(["M", "M", "A", "??"])} ${path}`);
    return lines.join("\n");
  }
  if (command.startsWith("git diff")) {
    const paths = random.sample(project.files, random.int(1, 4));
    const lines = paths.map(
      (path) =>
        ` ${path} | ${random.int(2, 80)} ${"+".repeat(random.int(1, 20))}${"-".repeat(random.int(0, 9))}`,
    );
    lines.push(
      ` ${paths.length} files changed, ${random.int(10, 200)} insertions(+), ${random.int(0, 60)} deletions(-)`,
    );
    return lines.join("\n");
  }
  if (command.startsWith("git log")) {
    const lines: string[] = [];
    for (let i = 0; i < 5; i++)
      lines.push(
        `${random.hex(7)} ${capitalize(random.pick(VERBS))} ${random.pick(NOUNS)} ${random.pick(NOUNS)}s`,
      );
    return lines.join("\n");
  }
  if (command.startsWith("rg ")) {
    const lines: string[] = [];
    for (let i = count(2, 30); i > 0; i--)
      lines.push(
        `${file()}:${random.int(1, 500)}:${STYLES[project.language].body(identifiers(random), random).trim()}`,
      );
    return lines.join("\n");
  }
  if (fail) {
    const lines: string[] = [];
    for (let i = random.int(1, 5); i > 0; i--)
      lines.push(
        `${file()}:${random.int(1, 400)}:${random.int(1, 60)}: error: ${random.pick(NOUNS)} is possibly undefined`,
      );
    return lines.join("\n");
  }
  const lines: string[] = [];
  for (let i = count(0, 25); i > 0; i--) lines.push(`${random.pick(VERBS)}ing ${random.pick(NOUNS)} … ok`);
  return lines.join("\n");
}
