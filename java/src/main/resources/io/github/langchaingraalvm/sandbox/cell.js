// Turns one REPL cell into a script the guest context can run, in a trusted tooling context that never sees
// guest state. Parsing is acorn's. Every edit is a splice at AST positions that keeps line numbers, so stacks
// point at the model's own lines. A cell that is not JavaScript goes through typescript.js first (the host does
// that), and comes back here stripped.
(function (readResource) {
  'use strict';
  // Patterns longer than this, made while acorn loads, are compiled on first use (see below).
  const LAZY_REGEXP = 200;
  const acorn = (function () {
    // While it loads, acorn builds about sixty long regular expressions (the names of Unicode properties for every
    // ECMAScript version, the classes of non-ASCII identifier characters) and calls only test() on them, for rare
    // input: a `\p{...}` in a regexp, a non-ASCII name. Compiling them was two thirds of the parser's load in a
    // fresh process (0.8 of 1.3 s); those made during the load are compiled on their first test() instead.
    let loading = true;
    function LazyRegExp(source, flags) {
      this.test = function (text) {
        const compiled = new RegExp(source, flags);
        this.test = (t) => compiled.test(t);
        return compiled.test(text);
      };
    }
    function AcornRegExp(source, flags) {
      return loading && String(source).length > LAZY_REGEXP ? new LazyRegExp(source, flags) : new RegExp(source, flags);
    }
    const holder = { exports: {} };
    new Function(
      'exports',
      'module',
      'define',
      'RegExp',
      readResource('META-INF/resources/webjars/acorn/8.18.0/dist/acorn.js')
    )(holder.exports, holder, undefined, AcornRegExp);
    loading = false;
    return holder.exports;
  })();

  const PARSE = { ecmaVersion: 'latest', sourceType: 'script', allowAwaitOutsideFunction: true, allowHashBang: true };

  // A script may use `await` as an identifier; a cell is read as one only when it is not valid with top-level
  // await, so `await (p)` stays an await.
  const PARSE_AWAIT_AS_NAME = Object.assign({}, PARSE, { allowAwaitOutsideFunction: false });

  function parse(code) {
    try {
      return acorn.parse(code, PARSE);
    } catch (e) {
      if (!(e instanceof SyntaxError) || !/\bawait\b/.test(code)) throw e;
      try {
        return acorn.parse(code, PARSE_AWAIT_AS_NAME);
      } catch (ignored) {
        throw e;
      }
    }
  }

  function isFunctionNode(node) {
    return node.type === 'FunctionDeclaration' || node.type === 'FunctionExpression' || node.type === 'ArrowFunctionExpression';
  }

  // Calls fn(child, key, inList) for each child node of an acorn node in source order, and stops at the first
  // child for which it returns true; says whether one did. `inList`: the child is an element of an array field.
  function someChild(node, fn) {
    for (const key in node) {
      if (key === 'type' || key === 'start' || key === 'end' || key === 'loc') continue;
      const child = node[key];
      if (Array.isArray(child)) {
        for (const c of child) if (c && typeof c.type === 'string' && fn(c, key, true)) return true;
      } else if (child && typeof child.type === 'string' && fn(child, key, false)) {
        return true;
      }
    }
    return false;
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
    return someChild(node, hasTopLevelAwait);
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

  // Edits are [position, deleteCount, insertText, rank]; applied from the end so positions stay valid. Texts
  // inserted at one position end up in ascending rank order.
  function applyEdits(code, edits) {
    edits.sort((a, b) => b[0] - a[0] || b[1] - a[1] || (b[3] || 0) - (a[3] || 0));
    let out = code;
    for (const [pos, del, text] of edits) out = out.slice(0, pos) + text + out.slice(pos + del);
    return out;
  }

  function blank(code, start, end) {
    return code.slice(start, end).replace(/[^\n]/g, ' ');
  }

  // The hidden variable that carries a cell's completion value where the engine's own would be wrong: inside the
  // arrow of an async cell, and in a script cell whose `using` declarations were rewritten (the context's global
  // lexical binding of that name; JavaScriptGuest declares it).
  const COMPLETION = '\u0192$cellValue';

  // A cell without top-level await stays a script: top-level let/const/class become var bindings so they can be
  // declared again by a later cell, and the script's completion value is the result. A `tracked` cell (one whose
  // completion edits are in place) resets COMPLETION at its first statement and ends with it.
  function rewriteScript(code, ast, tracked) {
    const edits = [];
    for (const stmt of ast.body) {
      if (stmt.type === 'VariableDeclaration' && stmt.kind !== 'var') {
        edits.push([stmt.start, stmt.kind.length, 'var' + ' '.repeat(stmt.kind.length - 3)]);
      } else if (stmt.type === 'ClassDeclaration') {
        edits.push([stmt.start, 0, 'var ' + stmt.id.name + ' = ']);
        edits.push([stmt.end, 0, ';']);
      }
    }
    if (!tracked) return edits.length ? applyEdits(code, edits) : code;
    // After a hashbang and leading comments; a directive prologue sets the value itself (completionEdits).
    if (ast.body[0].directive === undefined) edits.push([ast.body[0].start, 0, COMPLETION + ' = void 0; ']);
    return applyEdits(code, edits) + '\n;' + COMPLETION;
  }

  const LOOPS = new Set(['ForStatement', 'ForInStatement', 'ForOfStatement', 'WhileStatement', 'DoWhileStatement']);

  // Statements whose completion is undefined, not empty, when their body produces no value (UpdateEmpty(C,
  // undefined) in the specification): the completion variable is reset before them.
  function resetsCompletion(node) {
    return node.type === 'IfStatement' || node.type === 'SwitchStatement' || node.type === 'TryStatement' ||
      node.type === 'WithStatement' || LOOPS.has(node.type);
  }

  // Records edits that make COMPLETION hold the script completion value eval would give: every expression statement
  // outside functions assigns it, and statements that yield undefined for an empty body reset it first.
  // `inList` says whether the statement sits in a statement list, where a reset can go in front of it; in a
  // substatement position (`if (a) for (...) ...`) the statement is braced instead. Labels stay on their statement
  // so `continue label` still names a loop.
  function trackCompletion(stmt, inList, depth, edits) {
    let inner = stmt;
    while (inner.type === 'LabeledStatement') inner = inner.body;
    if (inner.type === 'ExpressionStatement') {
      edits.push([inner.expression.start, 0, COMPLETION + ' = (', depth]);
      edits.push([inner.expression.end, 0, ')', -depth]);
      return;
    }
    if (resetsCompletion(inner)) {
      if (inList) {
        edits.push([stmt.start, 0, COMPLETION + ' = void 0; ', depth]);
      } else {
        edits.push([stmt.start, 0, '{ ' + COMPLETION + ' = void 0; ', depth]);
        edits.push([stmt.end, 0, ' }', -depth]);
      }
    }
    const next = depth + 1;
    switch (inner.type) {
      case 'BlockStatement':
        for (const s of inner.body) trackCompletion(s, true, next, edits);
        break;
      case 'IfStatement':
        trackCompletion(inner.consequent, false, next, edits);
        if (inner.alternate) trackCompletion(inner.alternate, false, next, edits);
        break;
      case 'WithStatement':
        trackCompletion(inner.body, false, next, edits);
        break;
      case 'SwitchStatement':
        for (const c of inner.cases) for (const s of c.consequent) trackCompletion(s, true, next, edits);
        break;
      case 'TryStatement':
        trackCompletion(inner.block, true, next, edits);
        if (inner.handler) {
          // A caught exception discards what the try block produced.
          edits.push([inner.handler.body.start + 1, 0, ' ' + COMPLETION + ' = void 0;', next]);
          trackCompletion(inner.handler.body, true, next, edits);
        }
        if (inner.finalizer) {
          // A finally block that completes normally keeps the value from before it.
          const saved = '\u0192$cellSaved' + depth;
          edits.push([inner.finalizer.start + 1, 0, ' const ' + saved + ' = ' + COMPLETION + '; {', next]);
          edits.push([inner.finalizer.end - 1, 0, ';} ' + COMPLETION + ' = ' + saved + '; ', -next]);
          trackCompletion(inner.finalizer, true, next + 1, edits);
        }
        break;
      default:
        if (LOOPS.has(inner.type)) trackCompletion(inner.body, false, next, edits);
        break;
    }
  }

  // The edits that track the completion value of a whole cell. A directive keeps its place in the prologue and
  // is assigned after it.
  function completionEdits(code, ast) {
    const edits = [];
    for (const stmt of ast.body) {
      if (stmt.directive !== undefined) {
        edits.push([stmt.end, 0, ' ' + COMPLETION + ' = ' + code.slice(stmt.expression.start, stmt.expression.end) + ';']);
      } else {
        trackCompletion(stmt, true, 1, edits);
      }
    }
    return edits;
  }

  // A cell with top-level await runs as an async arrow. Its top-level bindings are declared as globals on the
  // first line, its declarations become assignments, and it returns its completion value (tracked here unless
  // `tracked` says the cell's completion edits are in place already).
  function rewriteAsync(code, ast, tracked) {
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
      } else if (!tracked) {
        trackCompletion(stmt, true, 1, edits);
      }
    }
    const unique = [...new Set(names)];
    // Function declarations stay hoisted inside the arrow and are published to the global object up front.
    const publish = functionNames.map((n) => 'globalThis.' + n + ' = ' + n + ';').join(' ');
    const prefix = (unique.length ? 'var ' + unique.join(', ') + '; ' : '') + '(async () => { let ' + COMPLETION +
      '; ' + publish;
    return prefix + applyEdits(code, edits) + '\n;return ' + COMPLETION + ';\n})()';
  }

  function declaresAwait(ast) {
    const names = [];
    for (const stmt of ast.body) {
      if (stmt.type === 'VariableDeclaration') for (const d of stmt.declarations) patternNames(d.id, names);
      else if ((stmt.type === 'FunctionDeclaration' || stmt.type === 'ClassDeclaration') && stmt.id) names.push(stmt.id.name);
    }
    return names.includes('await');
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

  // `using` and `await using` declarations, which the engine does not parse, become `const` bindings whose values
  // a DisposableStack (AsyncDisposableStack) adopts, in a try statement that disposes the stack when the scope
  // ends; the stack's own dispose gives the specification's order and its SuppressedError chain, and an error of
  // the scope's body is deferred on top of the stack, so it is the first completion the disposals see. Each
  // splice keeps line numbers. Returns the code unchanged when it has no such declaration; throws a UsingError
  // for a declaration where the specification forbids one and acorn does not check.
  function UsingError(message, pos) {
    this.message = message;
    this.pos = pos;
  }

  function isUsing(node) {
    return !!node && node.type === 'VariableDeclaration' && (node.kind === 'using' || node.kind === 'await using');
  }

  const SUBSTATEMENTS = { IfStatement: ['consequent', 'alternate'], WhileStatement: ['body'], DoWhileStatement: ['body'],
    ForStatement: ['body'], ForInStatement: ['body'], ForOfStatement: ['body'], LabeledStatement: ['body'], WithStatement: ['body'] };

  function rewriteUsing(code, ast) {
    const edits = [];
    let counter = 0;
    function stackOpen(isAsync, name) {
      return 'const ' + name + ' = new ' + (isAsync ? 'AsyncDisposableStack' : 'DisposableStack') + '(); try { ';
    }
    function stackClose(isAsync, name) {
      const err = name + 'Error';
      return ' } catch (' + err + ') { ' + name + '.defer(() => { throw ' + err + '; }); } finally { ' +
        (isAsync ? 'await ' + name + '.disposeAsync(); }' : name + '.dispose(); }');
    }
    function declaration(decl, name) {
      const idStart = decl.declarations[0].id.start;
      edits.push([decl.start, idStart - decl.start, 'const' + blank(code, decl.start + 5, idStart)]);
      // The initializer stays the binding's own, so an anonymous function gets the binding's name; the stack
      // adopts each value right after its binding is initialized, as the specification orders it.
      for (const d of decl.declarations) {
        edits.push([d.end, 0, ', ' + name + '$' + counter++ + ' = ' + name + '.use(' + d.id.name + ')']);
      }
    }
    function list(stmts, container, depth) {
      const usings = stmts.filter(isUsing);
      if (!usings.length) return;
      const name = '\u0192$using' + counter++;
      const isAsync = usings.some((d) => d.kind === 'await using');
      let first = 0;
      while (first < stmts.length && stmts[first].directive !== undefined) first++;
      edits.push([stmts[first].start, 0, stackOpen(isAsync, name), depth]);
      edits.push([container.end - 1, 0, stackClose(isAsync, name), -depth]);
      for (const d of usings) declaration(d, name);
    }
    function walk(node, depth, labelStart) {
      if (!node || typeof node.type !== 'string') return;
      const subs = SUBSTATEMENTS[node.type];
      if (subs) {
        for (const key of subs) {
          if (isUsing(node[key])) throw new UsingError('Lexical declaration cannot appear in a single-statement context', node[key].start);
        }
      }
      switch (node.type) {
        case 'BlockStatement':
        case 'StaticBlock':
          list(node.body, node, depth);
          break;
        case 'SwitchCase':
          for (const s of node.consequent) {
            if (isUsing(s)) throw new UsingError('A using declaration cannot appear directly in a case clause', s.start);
          }
          break;
        case 'ForInStatement':
          if (isUsing(node.left)) throw new UsingError('A using declaration cannot be the head of a for-in loop', node.left.start);
          break;
        case 'ForOfStatement':
          if (isUsing(node.left)) {
            const name = '\u0192$using' + counter++;
            const isAsync = node.left.kind === 'await using';
            const binding = node.left.declarations[0].id;
            edits.push([node.left.start, binding.start - node.left.start, 'const' + blank(code, node.left.start + 5, binding.start)]);
            edits.push([node.body.start, 0, '{ ' + stackOpen(isAsync, name) + name + '.use(' + binding.name + '); ', depth]);
            edits.push([node.body.end, 0, stackClose(isAsync, name) + ' }', -depth]);
          }
          break;
        case 'ForStatement':
          if (isUsing(node.init)) {
            const name = '\u0192$using' + counter++;
            const isAsync = node.init.kind === 'await using';
            const start = labelStart === null ? node.start : labelStart;
            edits.push([start, 0, '{ ' + stackOpen(isAsync, name), depth]);
            edits.push([node.end, 0, stackClose(isAsync, name) + ' }', -depth]);
            declaration(node.init, name);
          }
          break;
        default:
          break;
      }
      const nextLabel = node.type === 'LabeledStatement' ? (labelStart === null ? node.start : labelStart) : null;
      someChild(node, (child, key, inList) => {
        walk(child, depth + 1, key === 'body' && !inList ? nextLabel : null);
        return false;
      });
    }
    walk(ast, 1, null);
    return edits.length ? applyEdits(code, edits) : code;
  }

  // Text given to eval() is parsed by the engine, which has no `using`. The text of an `eval(...)` call whose
  // argument is a literal that declares one is compiled here instead: a direct eval stays direct (only the
  // argument changes), so the text still runs in the caller's scope. Its completion value, which eval returns, is
  // carried by a binding of its own, since the try statement of a rewritten scope turns an empty completion into
  // undefined (`eval('4; {using x = null;}')` is 4). Text built at run time is not seen, nor a text that does not
  // parse here: the engine reads those as they are. Keeps line numbers, in the text and in the code around it.
  const EVAL_PARSE = { ecmaVersion: 'latest', sourceType: 'script' };

  function literalText(node) {
    if (node.type === 'Literal' && typeof node.value === 'string') return node.value;
    if (node.type === 'TemplateLiteral' && node.expressions.length === 0) return node.quasis[0].value.cooked;
    return null;
  }

  function compileEvalText(text) {
    let ast;
    try {
      ast = acorn.parse(text, EVAL_PARSE);
      const inner = rewriteEvalTexts(text, ast);
      if (inner !== text) ast = acorn.parse((text = inner), EVAL_PARSE);
    } catch (e) {
      if (!(e instanceof SyntaxError)) throw e;
      return null;
    }
    const tracked = applyEdits(text, completionEdits(text, ast));
    let rewritten;
    try {
      rewritten = rewriteUsing(tracked, acorn.parse(tracked, EVAL_PARSE));
    } catch (e) {
      if (!(e instanceof UsingError)) throw e;
      return null; // the engine reports the misplaced declaration as a SyntaxError
    }
    return rewritten === tracked ? null : 'let ' + COMPLETION + '; ' + rewritten + '\n;' + COMPLETION;
  }

  function rewriteEvalTexts(code, ast) {
    const edits = [];
    (function visit(node) {
      if (node.type === 'CallExpression' && node.callee.type === 'Identifier' && node.callee.name === 'eval' &&
          node.arguments.length > 0) {
        const arg = node.arguments[0];
        const text = literalText(arg);
        const compiled = text !== null && /\busing\b/.test(text) ? compileEvalText(text) : null;
        if (compiled !== null) {
          const lines = code.slice(arg.start, arg.end).split('\n').length - 1;
          edits.push([arg.start, arg.end - arg.start, JSON.stringify(compiled) + '\n'.repeat(lines)]);
        }
      }
      someChild(node, (child) => {
        visit(child);
        return false;
      });
    })(ast);
    return edits.length ? applyEdits(code, edits) : code;
  }

  function lineColumn(code, pos) {
    const before = code.slice(0, pos).split('\n');
    return ' (' + before.length + ':' + (before[before.length - 1].length + 1) + ')';
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
    let tracked = false;
    if (/\busing\b/.test(code)) {
      const withTexts = rewriteEvalTexts(code, ast);
      if (withTexts !== code) {
        code = withTexts;
        ast = parse(code);
      }
      let rewritten;
      try {
        rewritten = rewriteUsing(code, ast);
      } catch (e) {
        if (!(e instanceof UsingError)) throw e;
        return ['syntax', e.message + lineColumn(code, e.pos)];
      }
      if (rewritten !== code) {
        // The completion value is tracked on the cell as written: the try statement of a rewritten scope turns an
        // empty completion into undefined, and `4; { using x = null; }` is 4, as eval gives.
        const withCompletion = applyEdits(code, completionEdits(code, ast));
        code = rewriteUsing(withCompletion, parse(withCompletion));
        ast = parse(code);
        tracked = true;
      }
    }
    let awaits = hasTopLevelAwait(ast);
    if (awaits && declaresAwait(ast)) {
      // `var await = 1; await + 1` binds the name, so the cell is a script whatever acorn read first.
      try {
        ast = acorn.parse(code, PARSE_AWAIT_AS_NAME);
        awaits = false;
      } catch (ignored) {
        // Not valid as a script either: the await reading stands and the engine reports the error.
      }
    }
    try {
      return ['ok', awaits ? rewriteAsync(code, ast, tracked) : rewriteScript(code, ast, tracked)];
    } catch (e) {
      return ['syntax', 'could not prepare the cell: ' + String(e && e.message)];
    }
  };
});
