# Snapshots (format "py" version 1), pickle-free: the payload is an ASCII Python literal made only of dicts with
# string keys, lists, strings, numbers, True, False and None. It is written with ascii() and read back by walking
# the compiler's AST of it (no eval, nothing but those literal nodes accepted), because importing the json package
# in a fresh GraalPy context costs a second or more per turn.
#   {"py":1,"cells":N,"src":{file:[[line,text],...]},"fn":[[file,line,name,source],...],
#    "g":[name,V,name,V,...],"h":[entry,...],"res":{name:type}}
# A value V is one of:
#   null, true, false, a string, a number (ints below 2**53, finite floats as JSON floats)
#   [id]                         reference to entry h[id] (shared references and cycles survive)
#   ["i","123..."]               a larger int       ["f","nan"|"inf"|"-inf"]  a float JSON cannot spell
#   ["c",re,im]                  complex            ["dec","1.10"]              decimal.Decimal
#   ["dt",iso] ["date",iso] ["time",iso] ["td",days,seconds,microseconds]      datetime values (naive or UTC offset)
#   ["m","json"]                 a module, imported again on restore
#   ["r","math","sqrt"]          an object importable as module.qualname (from math import sqrt)
#   ["F",index]                  a function or class made by the top-level def/class statement fn[index]
# Entries: ["l",V...] list  ["t",V...] tuple  ["d",k,v,k,v...] dict  ["s",V...] set  ["S",V...] frozenset
#          ["b",base64] bytes  ["B",base64] bytearray
# Functions and classes are saved as the source of the top-level statement that made them (decorators included)
# and executed again on restore, at their original line numbers, after the saved modules are imported. Any other
# value (instances of the model's classes, lambdas, generators, files, ...) is a residue: the name is left unbound
# and reading it raises NameError("Value for 'NAME' was not restored because it is not serializable (type: TYPE).").
# A residue that is still unbound is saved again as a residue. Nothing is ever unpickled.


def residue_text(name, type_name):
    return f"Value for '{name}' was not restored because it is not serializable (type: {type_name})."


class Unserializable(Exception):
    pass
