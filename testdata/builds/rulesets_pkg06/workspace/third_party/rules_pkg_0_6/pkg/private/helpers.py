"""What build_tar's flags hold: values from files, path=value pairs, owners."""


def flag_value(value):
    """A value given as @FILE is that file's contents."""
    if value and value.startswith("@"):
        with open(value[1:], "r", encoding="utf-8") as f:
            return f.read().strip()
    return value


def split_pairs(values, convert):
    """Maps each path=value of values (a leading / dropped) to convert(value)."""
    result = {}
    for pair in values:
        path, _, value = pair.rpartition("=")
        result[path.replace("\\=", "=").lstrip("/")] = convert(value)
    return result


def owner_pair(value, convert):
    user, _, group = value.partition(".")
    return (convert(user), convert(group))
