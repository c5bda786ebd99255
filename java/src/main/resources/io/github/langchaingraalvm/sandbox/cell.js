// Turns one REPL cell into a script the guest context can run, in a trusted tooling context that never sees
// guest state. Parsing is acorn's. Every edit is a splice at AST positions that keeps line numbers, so stacks
// point at the model's own lines. A cell that is not JavaScript goes through typescript.js first (the host does
// that), and comes back here stripped.
(function (readResource) {
  'use strict';
  const acorn = (function () {
    const holder = { exports: {} };
    new Function('exports', 'module', 'define', readResource('META-INF/resources/webjars/acorn/8.15.0/dist/acorn.js'))(
      holder.exports,
      holder,
      undefined
    );
    return holder.exports;
  })();

  const PARSE = { ecmaVersion: 'latest', sourceType: 'script', allowAwaitOutsideFunction: true, allowHashBang: true };

  function parse(code) {
    return acorn.parse(code, PARSE);
  }

  function isFunctionNode(node) {
    return node.type === 'FunctionDeclaration' || node.type === 'FunctionExpression' || node.type === 'ArrowFunctionExpression';
  }

  // True when the cell awaits outside any function, which requires running it as an async function.
  function hasTopLevelAwait(node) {
    if (!node || typeof node.type !== 'string') return false;
    if (node.type === 'AwaitExpression') return true;
    if (node.type === 'ForOfStatement' && node.await) return true;
    if (isFunctionNode(node)) return false;
    if (node.type === 'ClassDeclaration' || node.type === 'ClassExpression') {
      // Computed keys and heritage run in the enclosing scope; bodies do not.
      if (hasTopLevelAwait(node.superClass)) return true;
      for (const member of node.body.body) if (member.computed && hasTopLevelAwait(member.key)) return true;
      return false;
    }
    for (const key in node) {
      if (key === 'type' || key === 'start' || key === 'end') continue;
      const child = node[key];
      if (Array.isArray(child)) {
        for (const c of child) if (c && typeof c.type === 'string' && hasTopLevelAwait(c)) return true;
      } else if (child && typeof child.type === 'string' && hasTopLevelAwait(child)) {
        return true;
      }
    }
    return false;
  }

  function patternNames(pattern, names) {
    switch (pattern.type) {
      case 'Identifier':
        names.push(pattern.name);
        break;
      case 'ObjectPattern':
        for (const p of pattern.properties) patternNames(p.type === 'RestElement' ? p.argument : p.value, names);
        break;
      case 'ArrayPattern':
        for (const e of pattern.elements) if (e) patternNames(e, names);
        break;
      case 'RestElement':
        patternNames(pattern.argument, names);
        break;
      case 'AssignmentPattern':
        patternNames(pattern.left, names);
        break;
      default:
        break;
    }
  }

  // Edits are [position, deleteCount, insertText]; applied from the end so positions stay valid.
  function applyEdits(code, edits) {
    edits.sort((a, b) => b[0] - a[0] || b[1] - a[1]);
    let out = code;
    for (const [pos, del, text] of edits) out = out.slice(0, pos) + text + out.slice(pos + del);
    return out;
  }

  function blank(code, start, end) {
    return code.slice(start, end).replace(/[^\n]/g, ' ');
  }

  // A cell without top-level await stays a script: top-level let/const/class become var bindings so they can be
  // declared again by a later cell, and the script's completion value is the result.
  function rewriteScript(code, ast) {
    const edits = [];
    for (const stmt of ast.body) {
      if (stmt.type === 'VariableDeclaration' && stmt.kind !== 'var') {
        edits.push([stmt.start, stmt.kind.length, 'var' + ' '.repeat(stmt.kind.length - 3)]);
      } else if (stmt.type === 'ClassDeclaration') {
        edits.push([stmt.start, 0, 'var ' + stmt.id.name + ' = ']);
        edits.push([stmt.end, 0, ';']);
      }
    }
    return edits.length ? applyEdits(code, edits) : code;
  }

  // A cell with top-level await runs as an async arrow. Its top-level bindings are declared as globals on the
  // first line, its declarations become assignments, and its last expression statement is returned.
  function rewriteAsync(code, ast) {
    const names = [];
    const functionNames = [];
    const edits = [];
    const body = ast.body;
    for (const stmt of body) {
      if (stmt.type === 'VariableDeclaration') {
        edits.push([stmt.start, stmt.kind.length, blank(code, stmt.start, stmt.start + stmt.kind.length)]);
        for (const d of stmt.declarations) {
          patternNames(d.id, names);
          edits.push([d.start, 0, '(']);
          edits.push([d.end, 0, d.init ? ')' : ' = void 0)']);
        }
      } else if (stmt.type === 'ClassDeclaration') {
        names.push(stmt.id.name);
        edits.push([stmt.start, 0, stmt.id.name + ' = ']);
        edits.push([stmt.end, 0, ';']);
      } else if (stmt.type === 'FunctionDeclaration') {
        names.push(stmt.id.name);
        functionNames.push(stmt.id.name);
      }
    }
    const last = body[body.length - 1];
    if (last && last.type === 'ExpressionStatement') {
      edits.push([last.expression.start, 0, 'return (']);
      edits.push([last.expression.end, 0, ')']);
    }
    const unique = [...new Set(names)];
    // Function declarations stay hoisted inside the arrow and are published to the global object up front.
    const publish = functionNames.map((n) => 'globalThis.' + n + ' = ' + n + ';').join(' ');
    const prefix = (unique.length ? 'var ' + unique.join(', ') + '; ' : '') + '(async () => { ' + publish;
    return prefix + applyEdits(code, edits) + '\n})()';
  }

  const MODULE = { ecmaVersion: 'latest', sourceType: 'module', allowHashBang: true };

  function importText(code, stmt) {
    const from = 'await import(' + code.slice(stmt.source.start, stmt.source.end) + ')';
    const names = [];
    let namespace = null;
    for (const s of stmt.specifiers) {
      if (s.type === 'ImportNamespaceSpecifier') namespace = s.local.name;
      else if (s.type === 'ImportDefaultSpecifier') names.push('default: ' + s.local.name);
      else names.push(code.slice(s.imported.start, s.imported.end) + ': ' + s.local.name);
    }
    if (namespace !== null) {
      return 'const ' + namespace + ' = ' + from + (names.length ? ', {' + names.join(', ') + '} = ' + namespace : '') + ';';
    }
    return names.length ? 'const {' + names.join(', ') + '} = ' + from + ';' : from + ';';
  }

  // A static import would make the cell a module, whose bindings are not globals. Each one becomes an awaited
  // import() destructured into constants, on the same lines, so the cell stays a REPL script. Null when the cell
  // has no import declarations (or exports, which a cell cannot have).
  function rewriteImports(code) {
    let ast;
    try {
      ast = acorn.parse(code, MODULE);
    } catch (e) {
      return null;
    }
    const edits = [];
    for (const stmt of ast.body) {
      if (stmt.type === 'ImportDeclaration') {
        const lines = code.slice(stmt.start, stmt.end).split('\n').length - 1;
        edits.push([stmt.start, stmt.end - stmt.start, importText(code, stmt) + '\n'.repeat(lines)]);
      } else if (stmt.type.indexOf('Export') === 0) {
        return null;
      }
    }
    return edits.length ? applyEdits(code, edits) : null;
  }

  function syntaxMessage(e) {
    const loc = e.loc ? ' (' + e.loc.line + ':' + (e.loc.column + 1) + ')' : '';
    return String(e.message).replace(/ \(\d+:\d+\)$/, '') + loc;
  }

  // Returns [status, text]: ["ok", script] or ["syntax", message]. TypeScript is the host's next step.
  return function compileCell(code, imports) {
    let ast;
    try {
      ast = parse(code);
    } catch (e) {
      if (!(e instanceof SyntaxError)) throw e;
      const rewritten = imports === true ? rewriteImports(code) : null;
      return rewritten === null ? ['syntax', syntaxMessage(e)] : compileCell(rewritten, false);
    }
    try {
      return ['ok', hasTopLevelAwait(ast) ? rewriteAsync(code, ast) : rewriteScript(code, ast)];
    } catch (e) {
      return ['syntax', 'could not prepare the cell: ' + String(e && e.message)];
    }
  };
});
