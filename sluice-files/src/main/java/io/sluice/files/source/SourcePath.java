package io.sluice.files.source;

import io.sluice.api.InvalidOptionException;
import io.sluice.api.io.LocalPaths;
import io.sluice.files.fs.FileStatus;
import io.sluice.files.fs.FileStorage;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The one path a file source reads: a directory, a file, or a glob ({@code *}, {@code ?}, {@code [ab]},
 * {@code {a,b}} within one path component). Knows how to list the data files under it, which names are not data,
 * and which {@code key=value} folders a file sits in.
 */
final class SourcePath {
    private final String raw;
    /** The absolute pattern as given (globs included). */
    private final Path pattern;
    /** The longest prefix without glob characters: where listing starts and partition folders are counted from. */
    private final Path base;
    /** One matcher per component after {@link #base}; empty for a plain path. */
    private final List<PathMatcher> globs;
    /** {@code pathGlobFilter}: the file names that are read; null for all. Never applied to folders. */
    private final PathMatcher fileNames;
    /** {@code recursiveFileLookup}: no partition inference, {@code key=value} folders are plain folders. */
    private final boolean noPartitions;

    private SourcePath(String raw, Path pattern, Path base, List<PathMatcher> globs, PathMatcher fileNames,
                       boolean noPartitions) {
        this.raw = raw;
        this.pattern = pattern;
        this.base = base;
        this.globs = globs;
        this.fileNames = fileNames;
        this.noPartitions = noPartitions;
    }

    /** The source's {@code path} with its {@code pathGlobFilter} and {@code recursiveFileLookup}. */
    static SourcePath of(FileSourceOptions o, FileStorage storage) {
        SourcePath p = parse(o.path(), storage);
        PathMatcher names = o.pathGlobFilter().map(g -> nameFilter(FileSourceOptions.PATH_GLOB_FILTER, g))
                .orElse(null);
        return new SourcePath(p.raw, p.pattern, p.base, p.globs, names, o.recursiveFileLookup());
    }

    /**
     * Spark's {@code pathGlobFilter} (Hadoop's {@code GlobFilter}): a glob matched against a file's name only,
     * never its folders: {@code *}, {@code ?}, {@code [abc]}, {@code [a-z]}, {@code [^a]}, {@code {a,b}},
     * {@code \} to escape.
     *
     * @throws InvalidOptionException for a glob that does not compile, naming the option and the problem
     */
    static PathMatcher nameFilter(String option, String glob) {
        try {
            return matcher(glob);
        } catch (java.util.regex.PatternSyntaxException e) {
            throw new InvalidOptionException(option, glob, "Illegal file pattern: " + globProblem(e) + "; a glob "
                    + "matched against file names is accepted, such as *.json, part-*.csv or *.{json,jsonl}");
        }
    }

    /** The JDK's glob errors in words (its own are terse). */
    private static String globProblem(java.util.regex.PatternSyntaxException e) {
        String d = e.getDescription();
        return switch (d) {
            case "Missing ']" -> "'[' is not closed by ']'";
            case "Missing '}" -> "'{' is not closed by '}'";
            case "Cannot nest groups" -> "'{..}' groups cannot be nested";
            case "No character to escape" -> "'\\' at the end escapes nothing";
            case "Invalid range" -> "a range in '[..]' is invalid";
            case "Explicit 'name separator' in class" -> "'/' cannot be in '[..]'";
            default -> d;
        };
    }

    /** Whether a listed file (not a folder) is data by its name: {@code pathGlobFilter}, when given. */
    boolean acceptsFileName(String name) {
        return fileNames == null || fileNames.matches(Paths.get(name));
    }

    /** The consumer of listed files behind the {@code pathGlobFilter}. */
    private Consumer<FileStatus> filtered(Consumer<FileStatus> files, Consumer<FileStatus> special) {
        return f -> {
            if (fileNames != null && !acceptsFileName(f.name())) {
                return;
            }
            if (f.special()) {
                special.accept(f);
            } else {
                files.accept(f);
            }
        };
    }

    /**
     * Parses the {@code path} option. Refuses a comma-separated list (a comma inside {@code {..}} belongs to the
     * glob and is fine; {@code \,} is a literal comma).
     */
    static SourcePath parse(String raw, FileStorage storage) {
        return parse(FileSourceOptions.PATH, raw, storage);
    }

    /**
     * Parses a path option ({@code path}, or {@code sourceArchiveDir} whose value may not be a glob but is checked
     * by the same rules). A scheme other than {@code file:} is refused ({@link LocalPaths}).
     */
    static SourcePath parse(String option, String raw, FileStorage storage) {
        if (raw.isBlank()) {
            throw new InvalidOptionException(option, raw, "'" + option + "' is not specified", true);
        }
        int depth = 0;
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == '{') {
                depth++;
            } else if (c == '}') {
                depth = Math.max(0, depth - 1);
            } else if (c == ',' && depth == 0) {
                throw new InvalidOptionException(option, raw, "Invalid value '" + raw
                        + "' for option '" + option + "': a file source reads one path, a directory or a glob, not a "
                        + "comma-separated list of paths. Use a glob such as /data/{a,b} or start one query per "
                        + "path", true);
            }
        }
        Path pattern = storage.parse(option, raw);
        List<String> components = new ArrayList<>();
        for (Path p : pattern) {
            components.add(p.toString());
        }
        Path root = pattern.getRoot();
        Path base = root;
        int firstGlob = components.size();
        for (int i = 0; i < components.size(); i++) {
            if (isGlob(components.get(i))) {
                firstGlob = i;
                break;
            }
            base = base.resolve(components.get(i));
        }
        List<PathMatcher> globs = new ArrayList<>();
        for (int i = firstGlob; i < components.size(); i++) {
            try {
                globs.add(matcher(components.get(i)));
            } catch (java.util.regex.PatternSyntaxException e) {
                // The JDK's message alone ("Missing ']' near index 2") names neither the option nor the value.
                throw new InvalidOptionException(option, raw, "Illegal file pattern: " + globProblem(e) + " in '"
                        + components.get(i) + "'; a folder, a file or a glob such as /data/*.json or "
                        + "/data/{a,b}/*.csv is accepted");
            }
        }
        return new SourcePath(raw, pattern, base, List.copyOf(globs), null, false);
    }

    static boolean isGlob(String component) {
        for (int i = 0; i < component.length(); i++) {
            char c = component.charAt(i);
            if (c == '*' || c == '?' || c == '[' || c == '{') {
                return true;
            }
        }
        return false;
    }

    /** Hadoop writes negated classes as {@code [^a]}; Java's glob wants {@code [!a]}. */
    private static PathMatcher matcher(String component) {
        return FileSystems.getDefault().getPathMatcher("glob:" + component.replace("[^", "[!"));
    }

    /**
     * Whether a file or folder name is not data, as Spark's {@code shouldFilterOutPathName}: names starting with
     * {@code .} or {@code _} (except {@code key=value} folders such as {@code _k=v}), and names ending with
     * {@code ._COPYING_} (a file being copied in).
     */
    static boolean isHidden(String name) {
        return (name.startsWith("_") && !name.contains("=")) || name.startsWith(".") || name.endsWith("._COPYING_");
    }

    boolean isGlob() {
        return !globs.isEmpty();
    }

    String raw() {
        return raw;
    }

    Path pattern() {
        return pattern;
    }

    Path base() {
        return base;
    }

    /**
     * Every data file under the path: the glob expanded level by level, then each match walked recursively.
     * Hidden names are skipped at every level below {@link #base}; files whose name the {@code pathGlobFilter}
     * does not match are left out (folders are walked whatever their name), and so are special files (FIFOs,
     * sockets, devices). A plain path that does not exist (any more) yields nothing.
     */
    void list(FileStorage storage, Consumer<FileStatus> files) throws IOException {
        list(storage, files, f -> { });
    }

    /**
     * As {@link #list(FileStorage, Consumer)}, and passes the special files (FIFOs, sockets, devices, or links to
     * them) the {@code pathGlobFilter} accepts to {@code special} instead of {@code files}: they are not data.
     */
    void list(FileStorage storage, Consumer<FileStatus> files, Consumer<FileStatus> special) throws IOException {
        Consumer<FileStatus> out = filtered(files, special);
        if (globs.isEmpty()) {
            storage.walk(base, name -> !isHidden(name), out);
            return;
        }
        expand(storage, base, 0, out);
    }

    /**
     * The incremental listing's: as {@link #list(FileStorage, Consumer, Consumer)}, but one flat listing of
     * {@link #base} from {@code startAfter} (a file URI, or null for all) in the store's key order, with a glob's
     * components matched on each key instead of listing level by level (the same files: a key matches when its
     * first components match the glob's, each a folder but the last, and no component is hidden). Only for a
     * storage that {@link FileStorage#listsFromKey() lists from a key}.
     */
    void listFrom(FileStorage storage, String startAfter, Consumer<FileStatus> files, Consumer<FileStatus> special)
            throws IOException {
        Consumer<FileStatus> out = filtered(files, special);
        if (globs.isEmpty()) {
            storage.walk(base, startAfter, name -> !isHidden(name), out);
            return;
        }
        storage.walk(base, startAfter, name -> !isHidden(name), f -> {
            if (matchesGlobs(f.path())) {
                out.accept(f);
            }
        });
    }

    /** Whether a file under {@link #base} is under (or is) a match of the glob's components. */
    boolean matchesGlobs(Path file) {
        if (!file.startsWith(base) || file.equals(base)) {
            return false;
        }
        Path rel = base.relativize(file);
        if (rel.getNameCount() < globs.size()) {
            return false;
        }
        for (int i = 0; i < globs.size(); i++) {
            if (!globs.get(i).matches(rel.getName(i))) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether a file named by an event (an object store's notification) is one this path lists: under
     * {@link #base}, matching the glob, no hidden component below the base, and accepted by the
     * {@code pathGlobFilter}.
     */
    boolean accepts(Path file) {
        if (!file.startsWith(base) || file.equals(base) && !globs.isEmpty()) {
            return false;
        }
        if (!file.equals(base)) {
            for (Path c : base.relativize(file)) {
                if (isHidden(c.toString())) {
                    return false;
                }
            }
        }
        if (!globs.isEmpty() && !matchesGlobs(file)) {
            return false;
        }
        Path name = file.getFileName();
        return name != null && acceptsFileName(name.toString());
    }

    private void expand(FileStorage storage, Path dir, int level, Consumer<FileStatus> files) throws IOException {
        List<FileStatus> children;
        try {
            children = storage.list(dir);
        } catch (java.nio.file.NoSuchFileException | java.nio.file.NotDirectoryException e) {
            return;
        }
        PathMatcher m = globs.get(level);
        boolean last = level == globs.size() - 1;
        for (FileStatus c : children) {
            String name = c.name();
            if (isHidden(name) || !m.matches(Paths.get(name))) {
                continue;
            }
            if (!last) {
                if (c.directory()) {
                    expand(storage, c.path(), level + 1, files);
                }
            } else if (c.directory()) {
                storage.walk(c.path(), n -> !isHidden(n), files);
            } else {
                files.accept(c);
            }
        }
    }

    /**
     * The {@code key=value} folders between {@link #base} and the file, in path order, keys as written and
     * values unescaped (Spark escapes {@code %}, {@code /}, {@code =}, {@code :} and others as {@code %XX}).
     * None with {@code recursiveFileLookup}, which turns partition inference off, as in Spark.
     *
     * @throws IllegalStateException for an empty key, or a key that appears twice
     */
    Map<String, String> partitionsOf(Path file) {
        Path parent = file.getParent();
        if (noPartitions || parent == null || !parent.startsWith(base) || parent.equals(base)) {
            return Map.of();
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (Path component : base.relativize(parent)) {
            String c = component.toString();
            int eq = c.indexOf('=');
            if (eq < 0) {
                continue;
            }
            String key = unescape(c.substring(0, eq));
            if (key.isEmpty()) {
                throw new IllegalStateException("Empty partition column name in '" + c + "' (file " + file + ")");
            }
            String lower = key.toLowerCase(Locale.ROOT);
            for (String k : out.keySet()) {
                if (k.toLowerCase(Locale.ROOT).equals(lower)) {
                    throw new IllegalStateException("Partition column '" + key + "' appears twice in the path of "
                            + file);
                }
            }
            out.put(key, unescape(c.substring(eq + 1)));
        }
        return out;
    }

    /** Spark's {@code unescapePathName}: {@code %XX} becomes the character with that hex code. */
    static String unescape(String s) {
        if (s.indexOf('%') < 0) {
            return s;
        }
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '%' && i + 2 < s.length() && hex(s.charAt(i + 1)) >= 0 && hex(s.charAt(i + 2)) >= 0) {
                sb.append((char) (hex(s.charAt(i + 1)) * 16 + hex(s.charAt(i + 2))));
                i += 2;
                continue;
            }
            sb.append(c);
        }
        return sb.toString();
    }

    private static int hex(char c) {
        return Character.digit(c, 16);
    }

    /**
     * Spark's check on {@code sourceArchiveDir}: compared at the smaller of the two depths, the archive folder
     * must not match the source pattern component by component, or archived files could be listed again.
     */
    boolean matchedByArchive(Path archive) {
        List<String> src = new ArrayList<>();
        pattern.forEach(p -> src.add(p.toString()));
        List<String> arc = new ArrayList<>();
        archive.toAbsolutePath().normalize().forEach(p -> arc.add(p.toString()));
        int depth = Math.min(src.size(), arc.size());
        if (depth == 0) {
            return true; // the root matches everything
        }
        for (int i = 0; i < depth; i++) {
            String s = src.get(i);
            boolean same = isGlob(s) ? matcher(s).matches(Paths.get(arc.get(i))) : s.equals(arc.get(i));
            if (!same) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String toString() {
        return pattern.toString();
    }
}
