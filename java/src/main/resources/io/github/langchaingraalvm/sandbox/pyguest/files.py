def make_files(start_call):
    """The `files` object: the agent's files through the host's checks (prefixes, mode, byte budget)."""

    def fs(op, label, **spec):
        return start_call("fs", op, "files." + label, (), spec).result()

    def need_path(label, path):
        if not isinstance(path, str):
            raise TypeError(f"files.{label}() takes a path string such as '/data/input.json'")
        return path

    class Files:
        __slots__ = ()

        def read_text(self, path):
            """The file's exact text (UTF-8)."""
            return fs("readFile", "read_text", path=need_path("read_text", path), encoding="utf8")

        def read_bytes(self, path):
            """The file's bytes."""
            return fs("readFile", "read_bytes", path=need_path("read_bytes", path), encoding=None)

        def write(self, path, data):
            """Writes str (as UTF-8) or bytes to the file, replacing it."""
            if isinstance(data, bytearray):
                data = bytes(data)
            if not isinstance(data, (str, bytes)):
                raise TypeError("files.write() takes str or bytes")
            fs("writeFile", "write", path=need_path("write", path), data=data)

        def listdir(self, path="/"):
            """The names in a directory."""
            return fs("readdir", "listdir", path=need_path("listdir", path))

        def stat(self, path):
            """{'size': int, 'is_file': bool, 'is_dir': bool}."""
            raw = fs("stat", "stat", path=need_path("stat", path))
            return {"size": raw["size"], "is_file": raw["isFile"], "is_dir": raw["isDirectory"]}

        def remove(self, path, recursive=False):
            """Removes a file (a directory only with recursive=True)."""
            fs("rm", "remove", path=need_path("remove", path), recursive=bool(recursive))

        def glob(self, pattern, path=None):
            """Absolute paths of the files matching `pattern` (`**` descends)."""
            if not isinstance(pattern, str):
                raise TypeError("files.glob() takes a pattern string such as '/data/**/*.csv'")
            return fs("glob", "glob", pattern=pattern, path=path)

        def __setattr__(self, name, value):
            raise AttributeError("files is read-only")

        def __repr__(self):
            return "<the agent's files: read_text, read_bytes, write, listdir, stat, remove, glob>"

    return Files()
