package io.sluice.docs;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.sluice.docs.Commands.Command;
import io.sluice.docs.Markdown.Block;
import io.sluice.docs.Markdown.Directive;
import io.sluice.docs.Markdown.Kind;
import io.sluice.docs.Markdown.Page;
import io.sluice.kafka.broker.SharedLocalKafkaBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs the code blocks of Markdown pages (docs/ARCHITECTURE.md, "Tested documentation", says how): ```java blocks
 * are compiled and run, command blocks (```bash and indented) are run when they are sluice commands and checked
 * against the allow-list otherwise; ```json and ```yaml blocks must parse; ```text is not looked at. Every
 * absolute path under /tmp, /var/lib, /var/log or /data becomes a path in the page's own work folder, so that no
 * two pages, and nothing outside the build, share a file. Directives ({@code <!-- doctest: NAME ... -->} just
 * before a block): {@code file NAME}, {@code expect-exit N}, {@code needs kafka [TOPIC...]}, {@code wrap}
 * (a template with a {@code $SNIPPET} line), {@code resumes} and {@code skip REASON}.
 */
final class DocHarness {
    static final Set<String> DIRECTIVES = Set.of("file", "expect-exit", "needs", "wrap", "resumes", "skip");
    static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final Pattern SYSTEM_PATH = Pattern.compile("(?<![\\w./:~-])/(tmp|var/lib|var/log|data)(?=/)");
    private static final String DOC_BROKER = "localhost:9092";
    /** Where the docs' examples write a checkpoint: the Java option, the flag, the pipeline file's key. */
    private static final List<Pattern> CHECKPOINT = List.of(
            Pattern.compile("\"checkpointLocation\"\\s*,\\s*\"([^\"]+)\""),
            Pattern.compile("--checkpoint[ =](\\S+)"),
            Pattern.compile("(?m)^checkpoint:\\s*([^\\s#]+)"),
            Pattern.compile("checkpointLocation=(\\S+)"));

    private DocHarness() {
    }

    /** A sluice command that was expected to fail, with what it printed: for the one-line check. */
    record Failed(String where, String command, Commands.Result result) {
    }

    /** Where an example writes a checkpoint. */
    record CheckpointUse(String path, String where, boolean resumes) {
    }

    /** What a run found: every failure (page and line first), the skips, and the commands expected to fail. */
    record Report(List<String> failures, List<String> skips, List<Failed> expectedFailures, int javaBlocks,
                  int commands, Map<String, Long> millisByBlock) {
    }

    /** The pages of the repository that are tested: README.md and docs/**.md. */
    static List<String> pages(Path repo) throws IOException {
        List<String> pages = new ArrayList<>();
        pages.add("README.md");
        try (var files = Files.walk(repo.resolve("docs"))) {
            files.filter(p -> p.toString().endsWith(".md")).sorted()
                    .forEach(p -> pages.add(repo.relativize(p).toString()));
        }
        return pages;
    }

    static Map<String, Page> parse(Path repo, List<String> pages) throws IOException {
        Map<String, Page> parsed = new LinkedHashMap<>();
        for (String p : pages) {
            parsed.put(p, Markdown.parse(p, Files.readString(repo.resolve(p), StandardCharsets.UTF_8)));
        }
        return parsed;
    }

    /** Every checkpoint folder written by the examples of {@code pages}, in page order. */
    static List<CheckpointUse> checkpoints(Map<String, Page> pages) {
        List<CheckpointUse> uses = new ArrayList<>();
        for (Page page : pages.values()) {
            for (Block b : page.blocks()) {
                if (b.kind() == Kind.TEXT || b.kind() == Kind.JSON) {
                    continue; // sample output, not an example
                }
                for (Pattern p : CHECKPOINT) {
                    Matcher m = p.matcher(b.text());
                    while (m.find()) {
                        long line = b.line() + b.text().substring(0, m.start()).chars().filter(c -> c == '\n').count();
                        uses.add(new CheckpointUse(m.group(1), b.page() + ":" + line, b.has("resumes")));
                    }
                }
            }
        }
        return uses;
    }

    /** One problem per checkpoint folder that two examples write, unless the later ones say they resume it. */
    static List<String> sharedCheckpoints(List<CheckpointUse> uses) {
        Map<String, List<CheckpointUse>> byPath = new LinkedHashMap<>();
        uses.forEach(u -> byPath.computeIfAbsent(u.path(), k -> new ArrayList<>()).add(u));
        List<String> problems = new ArrayList<>();
        byPath.forEach((path, list) -> {
            List<CheckpointUse> sharing = list.subList(1, list.size()).stream().filter(u -> !u.resumes()).toList();
            if (!sharing.isEmpty()) {
                problems.add(list.get(0).where() + ": the checkpoint " + path + " is also used by "
                        + String.join(", ", sharing.stream().map(CheckpointUse::where).toList())
                        + ": give each example its own checkpoint folder (or mark a block that resumes the same "
                        + "query with <!-- doctest: resumes -->)");
            }
        });
        return problems;
    }

    /** Runs every block of {@code pages}; each page works in its own folder under {@code work}. */
    static Report run(Path repo, List<String> pageNames, Path work) throws Exception {
        Map<String, Page> pages = parse(repo, pageNames);
        List<String> failures = new ArrayList<>();
        List<String> skips = new ArrayList<>();
        List<Failed> expected = new ArrayList<>();
        Map<Block, JavaSnippets.Source> sources = new LinkedHashMap<>();
        Map<String, Path> workOf = new LinkedHashMap<>();
        int index = 0;
        for (Page page : pages.values()) {
            failures.addAll(page.problems());
            Path dir = work.resolve(page.page().replace('/', '_').replace(".md", ""));
            for (String sys : List.of("tmp", "var/lib", "var/log", "data")) {
                Files.createDirectories(dir.resolve(sys));
            }
            workOf.put(page.page(), dir);
            for (Block b : page.blocks()) {
                String problem = checkDirectives(b);
                if (problem != null) {
                    failures.add(problem);
                    continue;
                }
                Directive skip = b.directive("skip");
                if (skip != null) {
                    skips.add(b.where() + ": " + skip.argument());
                    continue;
                }
                Directive file = b.directive("file");
                if (file != null) { // written before any block of the page runs: a command above may use it
                    Files.writeString(dir.resolve(file.argument()), rewrite(b.text(), dir, null));
                }
                switch (b.kind()) {
                    case UNKNOWN -> failures.add(b.where() + ": a code block without a known language ('" + b.info()
                            + "'): fence it as ```java or ```bash (run by the doc tests), or ```text, ```json, "
                            + "```yaml (not run), ```python (compiled by python3; saved and run with a file directive)");
                    case JSON -> failures.addAll(parses(b, new ObjectMapper()));
                    case YAML -> failures.addAll(parses(b, new YAMLMapper()));
                    case PYTHON -> failures.addAll(pythonCompiles(b));
                    case JAVA -> {
                        try {
                            Directive wrap = b.directive("wrap");
                            String bootstrap = needsKafka(b) ? bootstrap(b) : null;
                            sources.put(b, JavaSnippets.source(b, rewrite(b.text(), dir, bootstrap),
                                    wrap == null ? null : rewrite(wrap.argument(), dir, bootstrap), index++));
                        } catch (IllegalArgumentException e) {
                            failures.add(e.getMessage());
                        }
                    }
                    default -> {
                    }
                }
            }
        }
        failures.addAll(sharedCheckpoints(checkpoints(pages)));
        long compileStart = System.nanoTime();
        JavaSnippets.Compiled compiled = JavaSnippets.compile(new ArrayList<>(sources.values()));
        Map<String, Long> millis = new LinkedHashMap<>();
        millis.put("(compiling the java blocks)", (System.nanoTime() - compileStart) / 1_000_000);
        failures.addAll(compiled.errors());
        boolean runJava = compiled.errors().isEmpty();
        int commands = 0;
        for (Page page : pages.values()) {
            Path dir = workOf.get(page.page());
            for (Block b : page.blocks()) {
                if (b.has("skip") || checkDirectives(b) != null) {
                    continue;
                }
                long started = System.nanoTime();
                if (b.kind() == Kind.JAVA && runJava) {
                    String problem = JavaSnippets.run(sources.get(b), compiled.loader(), TIMEOUT);
                    if (problem == null) {
                        problem = queriesLeftRunning(b);
                    }
                    if (problem != null) {
                        failures.add(problem);
                    }
                } else if (b.kind() == Kind.COMMANDS) {
                    commands += runCommands(repo, b, dir, failures, expected);
                }
                millis.put(b.where(), (System.nanoTime() - started) / 1_000_000);
            }
        }
        return new Report(failures, skips, expected, sources.size(), commands, millis);
    }

    private static int runCommands(Path repo, Block b, Path dir, List<String> failures, List<Failed> expected)
            throws IOException, InterruptedException {
        List<Command> commands;
        try {
            commands = Commands.parse(rewrite(b.text(), dir, needsKafka(b) ? bootstrap(b) : null), b.line());
        } catch (IllegalArgumentException e) {
            failures.add(b.where() + ": " + e.getMessage());
            return 0;
        }
        Directive exit = b.directive("expect-exit");
        int ran = 0;
        for (Command c : commands) {
            String where = b.page() + ":" + c.line();
            if (!c.isSluice()) {
                String problem = Commands.checkOther(c, repo);
                if (problem != null) {
                    failures.add(where + ": " + problem);
                }
                continue;
            }
            ran++;
            Commands.Result r = Commands.runSluice(c.sluiceArgs(), dir, TIMEOUT);
            int want = exit != null ? Integer.parseInt(exit.argument()) : r.stopCode();
            if (r.exitCode() != want) {
                failures.add(where + ": `" + c.text() + "` exited with " + r.exitCode() + ", expected " + want
                        + (r.stopped() ? " (stopped with SIG" + (r.stopCode() == 130 ? "INT" : "TERM")
                        + " after its first batch)" : "") + "; stderr: "
                        + clip(r.err()) + "; stdout: " + clip(r.out()));
                continue;
            }
            if (exit != null && want != 0) {
                expected.add(new Failed(where, c.text(), r));
            }
            String problem = Commands.deliver(c, r.out(), dir);
            if (problem != null) {
                failures.add(where + ": " + problem);
            }
        }
        return ran;
    }

    private static String checkDirectives(Block b) {
        for (Directive d : b.directives()) {
            if (!DIRECTIVES.contains(d.name())) {
                return b.page() + ":" + d.line() + ": unknown doctest directive '" + d.name() + "'; known: "
                        + DIRECTIVES;
            }
            boolean ok = switch (d.name()) {
                case "skip" -> !d.argument().isBlank();
                case "file" -> d.argument().matches("[\\w.-]+");
                case "expect-exit" -> d.argument().matches("\\d+");
                case "needs" -> d.argument().matches("kafka(\\s+[\\w.-]+)*");
                case "wrap" -> d.argument().contains(JavaSnippets.SNIPPET);
                default -> d.argument().isBlank();
            };
            if (!ok) {
                return b.page() + ":" + d.line() + ": the doctest directive '" + d.name() + " " + d.argument()
                        + "' is malformed: " + switch (d.name()) {
                    case "skip" -> "say why the block cannot run: skip REASON";
                    case "file" -> "file NAME, a plain file name";
                    case "expect-exit" -> "expect-exit N";
                    case "needs" -> "needs kafka [TOPIC...]";
                    case "wrap" -> "its template needs a line " + JavaSnippets.SNIPPET;
                    default -> "it takes no argument";
                };
            }
        }
        return null;
    }

    private static List<String> parses(Block b, ObjectMapper mapper) {
        try {
            mapper.readTree(b.text());
            return List.of();
        } catch (IOException e) {
            return List.of(b.where() + ": the ```" + b.info() + " block does not parse: "
                    + e.getMessage().lines().findFirst().orElse(""));
        }
    }

    /** Paths under /tmp, /var/lib, /var/log, /data moved into {@code dir}; the docs' broker replaced. */
    static String rewrite(String text, Path dir, String bootstrap) {
        String r = SYSTEM_PATH.matcher(text).replaceAll(m -> Matcher.quoteReplacement(dir + "/" + m.group(1)));
        return bootstrap == null ? r : r.replace(DOC_BROKER, bootstrap);
    }

    private static boolean needsKafka(Block b) {
        Directive d = b.directive("needs");
        return d != null && d.argument().startsWith("kafka");
    }

    /** The shared test broker, with the directive's topics created (one partition each). */
    private static String bootstrap(Block b) {
        String servers = SharedLocalKafkaBroker.get().bootstrapServers();
        String[] words = b.directive("needs").argument().split("\\s+"); // kafka TOPIC...
        List<String> topics = List.of(words).subList(1, words.length);
        if (!topics.isEmpty()) {
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, servers))) {
                for (String t : topics) {
                    try {
                        admin.createTopics(List.of(new NewTopic(t, 1, (short) 1))).all().get();
                    } catch (ExecutionException e) {
                        if (!(e.getCause() instanceof TopicExistsException)) {
                            throw new IllegalStateException("Cannot create topic " + t + ": " + e.getCause(), e);
                        }
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        return servers;
    }

    /** A snippet must stop what it starts: its query threads end within a few seconds. */
    private static String queriesLeftRunning(Block b) {
        try {
            Awaitility.await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
                    .until(() -> runningQueries().isEmpty());
            return null;
        } catch (ConditionTimeoutException e) {
            return b.where() + ": the ```java block left queries running (" + runningQueries() + "): stop them "
                    + "(q.stop(), or a wrap directive that does)";
        }
    }

    private static List<String> runningQueries() {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName)
                .filter(n -> n.startsWith("sluice-query-")).toList();
    }

    private static String clip(String s) {
        String t = s.strip();
        return t.isEmpty() ? "(nothing)" : t.length() > 2000 ? t.substring(0, 2000) + "..." : t;
    }

    /**
     * A ```python block must compile on the machine's python3 (a block saved with a file directive is also run by
     * the page's commands, e.g. {@code sluice run --python FILE}).
     */
    static List<String> pythonCompiles(Block b) {
        try {
            Process p = new ProcessBuilder("python3", "-c",
                    "import sys; compile(sys.stdin.read(), sys.argv[1], 'exec')", b.where())
                    .redirectErrorStream(true).start();
            try (var in = p.getOutputStream()) {
                in.write(b.text().getBytes(java.nio.charset.StandardCharsets.UTF_8));
            }
            String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            if (p.waitFor() != 0) {
                return List.of(b.where() + ": the Python block does not compile: " + out.strip());
            }
            return List.of();
        } catch (java.io.IOException e) {
            return List.of(b.where() + ": cannot run python3 to check a Python block: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return List.of(b.where() + ": interrupted");
        }
    }
}
