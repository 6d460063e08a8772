package io.sluice.docs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The commands of a command block: parsed as a shell would (quotes, {@code \} line continuations, {@code #}
 * comments, {@code NAME=value} prefixes, {@code > file}, {@code >> file}, {@code | jq .path}); {@code sluice}
 * commands are run, the others checked against a small allow-list.
 */
final class Commands {
    private static final Pattern ASSIGNMENT = Pattern.compile("^[A-Z_][A-Z0-9_]*=.*");
    private static final Pattern READY = Pattern.compile("^(batch \\d+|Kafka broker running).*");
    private static final Set<String> MVN_PHASES = Set.of("clean", "compile", "test-compile", "test", "package",
            "verify", "install");
    private static final Set<String> MVN_FLAGS = Set.of("-q", "-B", "-o", "-am", "-amd", "--offline", "--batch-mode",
            "--quiet");

    private Commands() {
    }

    /**
     * One command: its environment prefixes, its words, where its stdout goes ({@code redirect}, appended when
     * {@code append}) or what it is piped into ({@code pipe}, words), and its line on the page.
     */
    record Command(List<String> env, List<String> words, String redirect, boolean append, List<String> pipe,
                   int line) {
        boolean isSluice() {
            return sluiceArgs() != null;
        }

        /** The arguments after {@code bin/sluice}, {@code sluice} or {@code java -jar .../sluice.jar}; else null. */
        List<String> sluiceArgs() {
            if (words.isEmpty()) {
                return null;
            }
            String w = words.get(0);
            if (w.equals("sluice") || w.equals("bin/sluice") || w.equals("./bin/sluice")) {
                return words.subList(1, words.size());
            }
            if (w.equals("java")) {
                int jar = words.indexOf("-jar");
                if (jar > 0 && jar + 1 < words.size() && words.get(jar + 1).endsWith("sluice.jar")) {
                    return words.subList(jar + 2, words.size());
                }
            }
            return null;
        }

        String text() {
            return String.join(" ", env) + (env.isEmpty() ? "" : " ") + String.join(" ", words);
        }
    }

    /** The commands of a block starting at page line {@code firstLine}. */
    static List<Command> parse(String text, int firstLine) {
        List<Command> out = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        int i = 0;
        while (i < lines.length) {
            int start = i;
            StringBuilder logical = new StringBuilder();
            String l = lines[i];
            while (l.endsWith("\\") && i + 1 < lines.length) {
                logical.append(l, 0, l.length() - 1).append(' ');
                l = lines[++i];
            }
            logical.append(l);
            i++;
            List<String> words = words(logical.toString());
            if (words.isEmpty()) {
                continue;
            }
            List<String> env = new ArrayList<>();
            while (!words.isEmpty() && ASSIGNMENT.matcher(words.get(0)).matches()) {
                env.add(words.remove(0));
            }
            String redirect = null;
            boolean append = false;
            List<String> pipe = null;
            List<String> cmd = new ArrayList<>();
            for (int w = 0; w < words.size(); w++) {
                String word = words.get(w);
                if ((word.equals(">>") || word.equals(">")) && w + 1 < words.size()) {
                    append = word.equals(">>");
                    redirect = words.get(++w);
                } else if (word.equals("|")) {
                    pipe = new ArrayList<>(words.subList(w + 1, words.size()));
                    break;
                } else {
                    cmd.add(word);
                }
            }
            out.add(new Command(env, cmd, redirect, append, pipe, firstLine + start));
        }
        return out;
    }

    /**
     * Shell words: single quotes literal, double quotes with backslash escapes, {@code #} at the start of a word
     * starts a comment; {@code |}, {@code >} and {@code >>} outside quotes are words of their own.
     */
    static List<String> words(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = null;
        int i = 0;
        while (i < line.length()) {
            char c = line.charAt(i);
            if (Character.isWhitespace(c)) {
                if (cur != null) {
                    out.add(cur.toString());
                    cur = null;
                }
                i++;
            } else if (c == '#' && cur == null) {
                break;
            } else if (c == '$' && line.startsWith("$(", i)) {
                int end = line.indexOf(')', i);
                if (end < 0) {
                    throw new IllegalArgumentException("an unclosed $( in: " + line);
                }
                cur = cur == null ? new StringBuilder() : cur;
                cur.append(line, i, end + 1);
                i = end + 1;
            } else if (c == '\'') {
                int end = line.indexOf('\'', i + 1);
                if (end < 0) {
                    throw new IllegalArgumentException("an unclosed ' in: " + line);
                }
                cur = cur == null ? new StringBuilder() : cur;
                cur.append(line, i + 1, end);
                i = end + 1;
            } else if (c == '"') {
                cur = cur == null ? new StringBuilder() : cur;
                i++;
                while (i < line.length() && line.charAt(i) != '"') {
                    if (line.charAt(i) == '\\' && i + 1 < line.length()) {
                        i++;
                    }
                    cur.append(line.charAt(i++));
                }
                if (i >= line.length()) {
                    throw new IllegalArgumentException("an unclosed \" in: " + line);
                }
                i++;
            } else if ((c == '|' || c == '>') && cur == null) {
                String op = line.startsWith(">>", i) ? ">>" : String.valueOf(c);
                out.add(op);
                i += op.length();
            } else {
                cur = cur == null ? new StringBuilder() : cur;
                cur.append(c);
                i++;
            }
        }
        if (cur != null) {
            out.add(cur.toString());
        }
        return out;
    }

    // ---------------------------------------------------------------------------------------------------------
    // The allow-list: commands that are checked, not run

    /** Null when {@code c} (not a sluice command) is on the allow-list and its paths exist in {@code repo}. */
    static String checkOther(Command c, Path repo) {
        List<String> w = c.words();
        String first = w.get(0);
        if (first.equals("mvn")) {
            for (int i = 1; i < w.size(); i++) {
                String a = w.get(i);
                if (a.equals("-pl")) {
                    for (String module : w.get(++i).split(",")) {
                        if (!Files.isRegularFile(repo.resolve(module).resolve("pom.xml"))) {
                            return "mvn -pl names '" + module + "', which is not a module of the repository";
                        }
                    }
                } else if (!MVN_PHASES.contains(a) && !MVN_FLAGS.contains(a) && !a.startsWith("-D")
                        && !a.startsWith("-P")) {
                    return "mvn argument '" + a + "' is not one the docs use (phases " + MVN_PHASES + ", flags "
                            + MVN_FLAGS + ", -D..., -P..., -pl MODULES)";
                }
            }
            return null;
        }
        if (first.equals("java")) {
            return checkJava(w, repo);
        }
        if (first.equals("bench/run.sh")) {
            return checkBench(c, repo);
        }
        return "'" + first + "' is neither a sluice command (bin/sluice, sluice, java -jar .../sluice.jar) nor on the "
                + "allow-list (mvn, java -cp/-jar, bench/run.sh): add a doctest directive (skip REASON) or make it one";
    }

    private static String checkJava(List<String> w, Path repo) {
        for (int i = 1; i < w.size(); i++) {
            String a = w.get(i);
            if (a.equals("-cp") || a.equals("-classpath")) {
                String problem = checkClasspath(w.get(++i), repo);
                if (problem != null) {
                    return problem;
                }
                if (i + 1 >= w.size()) {
                    return "java -cp without a main class";
                }
                String main = w.get(i + 1);
                return sourceFiles(repo).contains(main.replace('.', '/') + ".java") ? null
                        : "the main class " + main + " is not in the repository's sources";
            }
            if (a.equals("-jar")) {
                return checkClasspath(w.get(i + 1), repo);
            }
            if (!a.startsWith("-") && !a.startsWith("$(cat ")) {
                return "java argument '" + a + "' before -cp or -jar is not a JVM flag";
            }
            if (a.startsWith("$(cat ")) {
                String problem = checkCat(a, repo);
                if (problem != null) {
                    return problem;
                }
            }
        }
        return "java without -cp or -jar";
    }

    private static final java.util.Map<Path, Set<String>> SOURCES = new java.util.concurrent.ConcurrentHashMap<>();

    /** The repository's Java sources, as {@code io/sluice/x/Y.java}, under any module's src/main|test/java. */
    private static Set<String> sourceFiles(Path repo) {
        return SOURCES.computeIfAbsent(repo, r -> {
            Pattern src = Pattern.compile(".*/src/(main|test)/java/(.*\\.java)$");
            try (var files = Files.walk(r)) {
                return files.map(Path::toString).filter(f -> !f.contains("/target/") && !f.contains("/.git/"))
                        .map(src::matcher).filter(Matcher::matches).map(m -> m.group(2))
                        .collect(java.util.stream.Collectors.toSet());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    /** Each element is a jar or folder under a module's target/ (the module must exist) or a $(cat FILE). */
    private static String checkClasspath(String cp, Path repo) {
        for (String e : cp.split(":")) {
            if (e.startsWith("$(cat ")) {
                String problem = checkCat(e, repo);
                if (problem != null) {
                    return problem;
                }
                continue;
            }
            int target = e.indexOf("/target/");
            if (target < 0 || !Files.isRegularFile(repo.resolve(e.substring(0, target)).resolve("pom.xml"))) {
                return "the classpath entry '" + e + "' is not under the target/ folder of a module of the repository";
            }
        }
        return null;
    }

    /** {@code $(cat F)}: F exists, or is generated under a module's target/. */
    private static String checkCat(String word, Path repo) {
        String f = word.substring("$(cat ".length(), word.indexOf(')'));
        int target = f.indexOf("/target/");
        boolean ok = target >= 0 ? Files.isRegularFile(repo.resolve(f.substring(0, target)).resolve("pom.xml"))
                : Files.isRegularFile(repo.resolve(f));
        return ok ? null : "$(cat " + f + "): no such file in the repository";
    }

    /** bench/run.sh's arguments are its workloads and groups, its environment variables those it reads. */
    private static String checkBench(Command c, Path repo) {
        String script;
        try {
            script = Files.readString(repo.resolve("bench/run.sh"));
        } catch (IOException e) {
            return "bench/run.sh: " + e.getMessage();
        }
        Matcher usage = Pattern.compile("usage: \\$0 \\[([a-z0-9|]+)\\]").matcher(script);
        if (!usage.find()) {
            return "bench/run.sh has no usage line to check the arguments against";
        }
        Set<String> accepted = Set.of(usage.group(1).split("\\|"));
        for (String a : c.words().subList(1, c.words().size())) {
            if (!accepted.contains(a)) {
                return "bench/run.sh does not accept '" + a + "'; accepted: " + usage.group(1);
            }
        }
        for (String e : c.env()) {
            String name = e.substring(0, e.indexOf('='));
            if (!script.contains("${" + name)) {
                return "bench/run.sh does not read the environment variable " + name;
            }
        }
        return null;
    }

    // ---------------------------------------------------------------------------------------------------------
    // Running sluice commands

    /**
     * What a sluice command did: exit code, stdout, stderr, and the code a stop by the harness exits with (130 for
     * SIGINT, 143 for SIGTERM), or 0 when it ended by itself.
     */
    record Result(int exitCode, String out, String err, int stopCode) {
        boolean stopped() {
            return stopCode != 0;
        }
    }

    /**
     * True when this JVM (so every process it starts) ignores SIGINT: a build started as a background job of a
     * non-interactive shell does, and a JVM leaves an ignored SIGINT ignored. Ctrl-C's stand-in is then SIGTERM,
     * which the CLI handles the same way (exit 143). Probed through sun.misc.Signal (jdk.unsupported): setting a
     * handler returns the one before, SIG_IGN when the signal was ignored; the one before is put back at once.
     */
    static boolean sigintIgnored() {
        try {
            Class<?> signal = Class.forName("sun.misc.Signal");
            Class<?> handler = Class.forName("sun.misc.SignalHandler");
            Object ignore = handler.getField("SIG_IGN").get(null);
            Object sigint = signal.getConstructor(String.class).newInstance("INT");
            java.lang.reflect.Method handle = signal.getMethod("handle", signal, handler);
            Object previous = handle.invoke(null, sigint, ignore);
            handle.invoke(null, sigint, previous);
            return previous == ignore;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return false;
        }
    }

    /**
     * True when the command runs until Ctrl-C: {@code kafka dev}, or a {@code run} whose trigger (flag, else the
     * pipeline file's {@code trigger}) is neither availableNow nor once.
     */
    static boolean runsUntilStopped(List<String> args, Path work) {
        if (args.size() >= 2 && args.get(0).equals("kafka") && args.get(1).equals("dev")) {
            return true;
        }
        if (args.isEmpty() || !args.get(0).equals("run") || args.contains("--help") || args.contains("-h")) {
            return false;
        }
        String trigger = null;
        for (int i = 1; i < args.size(); i++) {
            if (args.get(i).equals("--trigger") && i + 1 < args.size()) {
                trigger = args.get(i + 1);
            } else if (args.get(i).startsWith("--trigger=")) {
                trigger = args.get(i).substring("--trigger=".length());
            }
        }
        if (trigger == null && args.size() > 1 && !args.get(1).startsWith("-")) {
            Path file = work.resolve(args.get(1));
            if (Files.isRegularFile(file)) {
                try {
                    JsonNode t = new YAMLMapper().readTree(file.toFile()).get("trigger");
                    trigger = t == null || t.isNull() ? null : t.asText();
                } catch (IOException e) {
                    return false; // the command reports the bad file itself
                }
            }
        }
        String t = trigger == null ? "" : trigger.toLowerCase(Locale.ROOT);
        return !t.equals("availablenow") && !t.equals("once");
    }

    /**
     * Runs {@code sluice ARGS} in a child JVM on this test classpath, through {@code io.sluice.cli.Main} (the
     * jar's entry point), in {@code work}. One that runs until Ctrl-C gets SIGINT after its first batch line (or
     * the broker's ready line), as Ctrl-C would send it (SIGTERM when SIGINT is ignored, see
     * {@link #sigintIgnored()}).
     */
    static Result runSluice(List<String> args, Path work, Duration timeout) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx384m", "-cp", System.getProperty("java.class.path"),
                "io.sluice.cli.Main"));
        List<String> a = new ArrayList<>(args);
        // kafka dev's port 9092 may be taken on a build machine: a free port, the same command otherwise.
        if (a.size() >= 2 && a.get(0).equals("kafka") && a.get(1).equals("dev") && !a.contains("--port")) {
            a.add("--port");
            a.add("0");
        }
        cmd.addAll(a);
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(work.toFile());
        pb.environment().remove("SLUICE_PLUGINS");
        pb.environment().remove("TERM");
        pb.environment().put("COLUMNS", "80");
        Process p = pb.start();
        boolean untilStopped = runsUntilStopped(args, work);
        CountDownLatch ready = new CountDownLatch(1);
        StringBuilder out = new StringBuilder();
        StringBuilder err = new StringBuilder();
        Thread o = pump(p.getInputStream(), out, untilStopped ? ready : null, "doctest-stdout-" + p.pid());
        Thread e = pump(p.getErrorStream(), err, null, "doctest-stderr-" + p.pid());
        int stopCode = 0;
        try {
            if (untilStopped) {
                long deadline = System.nanoTime() + timeout.toNanos();
                while (!ready.await(100, TimeUnit.MILLISECONDS) && p.isAlive() && System.nanoTime() < deadline) {
                    // waiting for the first batch, or for the process to end by itself (a failure)
                }
                if (p.isAlive() && ready.getCount() == 0) {
                    boolean term = sigintIgnored();
                    new ProcessBuilder("kill", term ? "-TERM" : "-INT", Long.toString(p.pid())).inheritIO().start()
                            .waitFor();
                    stopCode = term ? 143 : 130;
                }
            }
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly().waitFor();
                o.join(5000);
                e.join(5000);
                return new Result(-1, out.toString(), err + "\n(the harness killed it after " + timeout.toSeconds()
                        + " s)", stopCode);
            }
        } finally {
            if (p.isAlive()) {
                p.destroyForcibly();
            }
        }
        o.join(5000);
        e.join(5000);
        return new Result(p.exitValue(), out.toString(), err.toString(), stopCode);
    }

    private static Thread pump(InputStream in, StringBuilder into, CountDownLatch ready, String name) {
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    synchronized (into) {
                        into.append(line).append('\n');
                    }
                    if (ready != null && READY.matcher(line).matches()) {
                        ready.countDown();
                    }
                }
            } catch (IOException e) {
                // the process ended
            }
        }, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** Where a redirect or pipe sends {@code out}; null when fine, else the problem. */
    static String deliver(Command c, String out, Path work) throws IOException {
        if (c.redirect() != null) {
            Path f = work.resolve(c.redirect());
            Files.writeString(f, out, StandardOpenOption.CREATE,
                    c.append() ? StandardOpenOption.APPEND : StandardOpenOption.TRUNCATE_EXISTING);
        }
        if (c.pipe() != null) {
            List<String> p = c.pipe();
            if (p.size() != 2 || !p.get(0).equals("jq") || !p.get(1).matches("(\\.[A-Za-z_][A-Za-z0-9_]*)+|\\.")) {
                return "only '| jq .path' is understood after a pipe, not '| " + String.join(" ", p) + "'";
            }
            JsonNode n;
            try {
                n = new ObjectMapper().readTree(out);
            } catch (IOException e) {
                return "the output piped into jq is not JSON: " + e.getMessage();
            }
            for (String field : p.get(1).substring(1).split("\\.")) {
                if (field.isEmpty()) {
                    continue;
                }
                if (n == null || !n.has(field)) {
                    return "jq " + p.get(1) + ": the output has no field '" + field + "'";
                }
                n = n.get(field);
            }
        }
        return null;
    }
}
