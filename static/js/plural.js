// A catalog's plural rule: the C expression of gettext's Plural-Forms ("(n != 1)", or French's
// "(n == 0 || n == 1) ? 0 : n != 0 && n % 1000000 == 0 ? 1 : 2"), read once into a function from a
// count to the index of its form.  Read by a small parser, never by eval (the page's CSP forbids it,
// and a catalog is data): numbers, n, parentheses, !, %, comparisons, && and ||, and ?:.

const TOKENS = /\s*(\d+|n|&&|\|\||[=!<>]=|[<>%?:()!])/y;
// The binary operators, loosest first.
const BINDING = { "||": 1, "&&": 2, "==": 3, "!=": 3, "<": 4, "<=": 4, ">": 4, ">=": 4, "%": 5 };
const APPLY = {
  "||": (a, b) => a || b, "&&": (a, b) => a && b, "==": (a, b) => a === b, "!=": (a, b) => a !== b,
  "<": (a, b) => a < b, "<=": (a, b) => a <= b, ">": (a, b) => a > b, ">=": (a, b) => a >= b,
  "%": (a, b) => a % b,
};

/** The rule `expression` as a function count -> form index; throws on an expression it cannot read. */
export function pluralRule(expression) {
  const tokens = tokenize(expression);
  const tree = parse(tokens, expression);
  return (count) => Number(evaluate(tree, Math.abs(Math.trunc(count))));
}

function tokenize(expression) {
  const tokens = [];
  TOKENS.lastIndex = 0;
  while (TOKENS.lastIndex < expression.trimEnd().length) {
    const match = TOKENS.exec(expression);
    if (!match) throw new Error(`not a plural rule: ${expression}`);
    tokens.push(match[1]);
  }
  return tokens;
}

// The expression as a tree of [operator, ...operands], "n" and numbers at its leaves.
function parse(tokens, expression) {
  let at = 0;
  const fail = () => { throw new Error(`not a plural rule: ${expression}`); };
  const expect = (token) => (tokens[at] === token ? at++ : fail());
  function ternary() {
    const condition = binary(1);
    if (tokens[at] !== "?") return condition;
    at++;
    const yes = ternary();
    expect(":");
    return ["?", condition, yes, ternary()];
  }
  function binary(least) {
    let left = unary();
    while (BINDING[tokens[at]] >= least) {
      const operator = tokens[at++];
      left = [operator, left, binary(BINDING[operator] + 1)];
    }
    return left;
  }
  function unary() {
    const token = tokens[at++];
    if (token === "!") return ["!", unary()];
    if (token === "(") {
      const inner = ternary();
      expect(")");
      return inner;
    }
    if (token === "n") return "n";
    if (/^\d+$/.test(token ?? "")) return Number(token);
    return fail();
  }
  const tree = ternary();
  if (at !== tokens.length) fail();
  return tree;
}

function evaluate(tree, n) {
  if (tree === "n") return n;
  if (typeof tree === "number") return tree;
  const [operator, ...operands] = tree;
  if (operator === "?") return evaluate(operands[0], n) ? evaluate(operands[1], n) : evaluate(operands[2], n);
  if (operator === "!") return evaluate(operands[0], n) ? 0 : 1;
  const value = APPLY[operator](evaluate(operands[0], n), evaluate(operands[1], n));
  return typeof value === "boolean" ? Number(value) : value;
}
