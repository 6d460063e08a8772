package io.sluice.docs;

import io.sluice.docs.Markdown.Block;

import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.FileObject;
import javax.tools.ForwardingJavaFileManager;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileManager;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Compiles the ```java blocks with javax.tools against the test classpath and runs them. A block is a whole
 * compilation unit (type declarations, maybe a {@code package} line), class members (methods and fields: put in a
 * class {@code Snippet}), or statements (the body of {@code static void run() throws Exception} of that class),
 * whichever it looks like; {@code import} lines at its top are lifted out, and the usual imports are added.
 * A {@code wrap} directive's template, with the block at its {@code $SNIPPET} line, is what is compiled instead.
 * {@code run()} (or a {@code main(String[])}) is called; a block that only declares types is compiled.
 */
final class JavaSnippets {
    static final String SNIPPET = "$SNIPPET";

    /** What a snippet may use without an import line; the API of every module the docs show. */
    static final List<String> IMPORTS = List.of("io.sluice.api.*", "io.sluice.api.types.*", "io.sluice.api.io.*",
            "io.sluice.api.source.*", "io.sluice.api.sink.*", "io.sluice.api.datasource.*", "io.sluice.core.*",
            "io.sluice.core.sinks.*", "io.sluice.core.sources.*", "io.sluice.testkit.*", "java.util.*", "java.io.*",
            "java.nio.file.*", "java.nio.charset.*", "java.time.*", "java.sql.Connection", "java.util.function.*",
            "static org.junit.jupiter.api.Assertions.*", "static org.awaitility.Awaitility.await");

    private static final Pattern TYPE_DECL = Pattern.compile(
            "^(@\\w+(\\([^)]*\\))?\\s+)*((public|protected|private|abstract|final|static|sealed|non-sealed|strictfp)"
                    + "\\s+)*(class|interface|enum|record|@interface)\\s+(\\w+)");
    private static final Pattern MEMBER = Pattern.compile(
            "^(@\\w+\\s+)*((public|protected|private|static|final|abstract|synchronized|default)\\s+)*"
                    + "[\\w<>\\[\\]?,]+(\\s*<[^>]*>)?\\s+\\w+\\s*\\([^;{]*\\)\\s*(throws\\s+[\\w., ]+)?\\s*\\{");
    private static final Pattern PUBLIC_TYPE = Pattern.compile(
            "(?m)^public\\s+((abstract|final|sealed|non-sealed|strictfp)\\s+)*(class|interface|enum|record)\\s+(\\w+)");

    private JavaSnippets() {
    }

    enum Shape { UNIT, MEMBERS, STATEMENTS }

    /**
     * One snippet's generated source. {@code firstLine}: the source line (1-based) of the block's first line;
     * {@code blockLines}: how many lines the block has.
     */
    record Source(Block block, String packageName, String className, String code, Shape shape, int firstLine,
                  int blockLines) {
        String fqcn() {
            return packageName + "." + className;
        }

        /** Where source line {@code line} is on its page. */
        String where(long line) {
            long inBlock = line - firstLine;
            if (inBlock >= 0 && inBlock < blockLines) {
                return block.page() + ":" + (block.line() + inBlock);
            }
            Markdown.Directive w = block.directive("wrap");
            return w != null ? block.page() + ":" + w.line() + " (the wrap directive of the block at "
                    + block.where() + ")" : block.where();
        }
    }

    /** The source for {@code block}, whose text has already been rewritten ({@code text}); index names its package. */
    static Source source(Block block, String text, String template, int index) {
        int offset = 0;
        int blockLines = text.split("\n", -1).length;
        // Lift the import lines at the top of the block and of the template; blank them so that lines keep
        // their numbers.
        StringBuilder lifted = new StringBuilder();
        String body = lift(text, lifted);
        if (template != null) {
            List<String> t = List.of(lift(template, lifted).split("\n", -1));
            int at = -1;
            for (int i = 0; i < t.size(); i++) {
                if (t.get(i).strip().equals(SNIPPET)) {
                    at = i;
                }
            }
            if (at < 0) {
                throw new IllegalArgumentException(block.where() + ": the wrap directive has no line " + SNIPPET);
            }
            offset = at;
            body = String.join("\n", t.subList(0, at)) + (at > 0 ? "\n" : "") + body + "\n"
                    + String.join("\n", t.subList(at + 1, t.size()));
        }
        String pkg = "doctest.s" + index;
        StringBuilder imports = new StringBuilder();
        for (String i : IMPORTS) {
            imports.append("import ").append(i).append("; ");
        }
        imports.append(lifted);
        String first = firstCode(body);
        Shape shape;
        String header;
        String footer;
        String className = "Snippet";
        if (first.startsWith("package ")) {
            Matcher m = Pattern.compile("^package\\s+([\\w.]+)\\s*;").matcher(first);
            if (!m.find()) {
                throw new IllegalArgumentException(block.where() + ": cannot read the package line");
            }
            pkg = m.group(1);
            // The package line stays; the imports go on the line after it, which must be blank.
            shape = Shape.UNIT;
            Matcher pub = PUBLIC_TYPE.matcher(body);
            className = pub.find() ? pub.group(4) : "Snippet";
            body = body.replaceFirst("(package\\s+[\\w.]+\\s*;)", "$1 " + Matcher.quoteReplacement(imports.toString()));
            header = "";
            footer = "";
        } else if (onlyTypes(body)) {
            shape = Shape.UNIT;
            Matcher pub = PUBLIC_TYPE.matcher(body);
            className = pub.find() ? pub.group(4) : "Snippet";
            header = "package " + pkg + "; " + imports + "\n";
            footer = "";
        } else if (MEMBER.matcher(first).find()) {
            shape = Shape.MEMBERS;
            header = "package " + pkg + "; " + imports + "final class Snippet {\n";
            footer = "\n}\n";
        } else {
            shape = Shape.STATEMENTS;
            header = "package " + pkg + "; " + imports
                    + "final class Snippet { static void run() throws Exception {\n";
            footer = "\n}}\n";
        }
        int firstLine = (header.isEmpty() ? 1 : 2) + offset;
        return new Source(block, pkg, className, header + body + footer, shape, firstLine, blockLines);
    }

    /** {@code text} with its leading import lines blanked; they are appended to {@code imports}. */
    private static String lift(String text, StringBuilder imports) {
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String s = lines[i].strip();
            if (s.startsWith("import ") && s.endsWith(";")) {
                imports.append(s).append(' ');
                lines[i] = "";
            } else if (!s.isEmpty() && !s.startsWith("//")) {
                break;
            }
        }
        return String.join("\n", lines);
    }

    /** The text from the first line that is neither blank nor a comment. */
    private static String firstCode(String body) {
        String[] lines = body.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String s = lines[i].strip();
            if (!s.isEmpty() && !s.startsWith("//")) {
                StringBuilder rest = new StringBuilder();
                for (int j = i; j < lines.length; j++) {
                    rest.append(lines[j].strip()).append(' ');
                }
                return rest.toString();
            }
        }
        return "";
    }

    /** True when every top-level part of {@code body} is a type declaration. */
    static boolean onlyTypes(String body) {
        String code = stripLiterals(body);
        int depth = 0;
        int i = 0;
        boolean any = false;
        while (i < code.length()) {
            char c = code.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
                continue;
            }
            if (depth == 0) {
                Matcher m = TYPE_DECL.matcher(code.substring(i));
                if (!m.find()) {
                    return false;
                }
                any = true;
                int open = code.indexOf('{', i);
                if (open < 0) {
                    return false;
                }
                depth = 1;
                i = open + 1;
                while (i < code.length() && depth > 0) {
                    char d = code.charAt(i++);
                    if (d == '{') {
                        depth++;
                    } else if (d == '}') {
                        depth--;
                    }
                }
                continue;
            }
            i++;
        }
        return any;
    }

    /** The text with comments, strings and chars blanked, so that braces in them do not count. */
    private static String stripLiterals(String s) {
        StringBuilder out = new StringBuilder(s.length());
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c == '/' && i + 1 < s.length() && s.charAt(i + 1) == '/') {
                while (i < s.length() && s.charAt(i) != '\n') {
                    out.append(' ');
                    i++;
                }
            } else if (c == '/' && i + 1 < s.length() && s.charAt(i + 1) == '*') {
                int end = s.indexOf("*/", i + 2);
                end = end < 0 ? s.length() : end + 2;
                out.append(" ".repeat(end - i));
                i = end;
            } else if (c == '"' || c == '\'') {
                out.append(' ');
                i++;
                while (i < s.length() && s.charAt(i) != c && s.charAt(i) != '\n') {
                    if (s.charAt(i) == '\\') {
                        out.append(' ');
                        i++;
                    }
                    out.append(' ');
                    i++;
                }
                out.append(' ');
                i++;
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    /** The compiled classes by name, or the compiler's errors, each with its page and line. */
    record Compiled(ClassLoader loader, List<String> errors) {
    }

    static Compiled compile(List<Source> sources) {
        if (sources.isEmpty()) {
            return new Compiled(JavaSnippets.class.getClassLoader(), List.of());
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        Map<String, ByteArrayOutputStream> classes = new HashMap<>();
        Map<URI, Source> byUri = new HashMap<>();
        List<JavaFileObject> units = new ArrayList<>();
        for (Source s : sources) {
            URI uri = URI.create("string:///" + s.packageName().replace('.', '/') + "/" + s.className() + ".java");
            byUri.put(uri, s);
            units.add(new SimpleJavaFileObject(uri, JavaFileObject.Kind.SOURCE) {
                @Override
                public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                    return s.code();
                }
            });
        }
        StandardJavaFileManager standard = javac.getStandardFileManager(diagnostics, Locale.ROOT,
                StandardCharsets.UTF_8);
        JavaFileManager files = new ForwardingJavaFileManager<>(standard) {
            @Override
            public JavaFileObject getJavaFileForOutput(Location location, String className, JavaFileObject.Kind kind,
                                                       FileObject sibling) {
                return new SimpleJavaFileObject(URI.create("mem:///" + className.replace('.', '/') + kind.extension),
                        kind) {
                    @Override
                    public OutputStream openOutputStream() {
                        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                        classes.put(className, bytes);
                        return bytes;
                    }
                };
            }
        };
        List<String> options = List.of("-classpath", System.getProperty("java.class.path"), "-proc:none",
                "-encoding", "UTF-8", "-nowarn");
        boolean ok = javac.getTask(null, files, diagnostics, options, null, units).call();
        List<String> errors = new ArrayList<>();
        for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
            if (d.getKind() != Diagnostic.Kind.ERROR) {
                continue;
            }
            Source s = d.getSource() == null ? null : byUri.get(d.getSource().toUri());
            String where = s == null ? "(generated code)" : s.where(d.getLineNumber());
            errors.add(where + ": the ```java block does not compile: " + d.getMessage(Locale.ROOT)
                    .replaceAll("\\s*\\R\\s*", " "));
        }
        if (!ok && errors.isEmpty()) {
            errors.add("javac failed without an error message");
        }
        ClassLoader parent = JavaSnippets.class.getClassLoader();
        ClassLoader loader = new ClassLoader("doctest-snippets", parent) {
            @Override
            protected Class<?> findClass(String name) throws ClassNotFoundException {
                ByteArrayOutputStream b = classes.get(name);
                if (b == null) {
                    throw new ClassNotFoundException(name);
                }
                byte[] bytes = b.toByteArray();
                return defineClass(name, bytes, 0, bytes.length);
            }
        };
        return new Compiled(loader, errors);
    }

    /**
     * Runs the snippet's {@code run()} (or {@code main}) on a thread of its own, with {@code timeout}; its
     * System.out and System.err are captured. Returns the problem, or null when it ran (or has nothing to run).
     */
    static String run(Source s, ClassLoader loader, Duration timeout) {
        Method entry = null;
        for (String name : List.of(s.packageName() + ".Snippet", s.fqcn())) {
            try {
                entry = entry(loader.loadClass(name));
            } catch (ClassNotFoundException e) {
                continue; // a unit need not have a class Snippet
            }
            if (entry != null) {
                break;
            }
        }
        if (entry == null) {
            return null; // declarations only: compiling them is the test
        }
        AtomicReference<Throwable> failure = new AtomicReference<>();
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream out = System.out;
        PrintStream err = System.err;
        PrintStream capture = new PrintStream(captured, true, StandardCharsets.UTF_8);
        Method m = entry;
        Thread t = new Thread(() -> {
            try {
                m.setAccessible(true);
                m.invoke(null, m.getParameterCount() == 0 ? new Object[0] : new Object[]{new String[0]});
            } catch (InvocationTargetException e) {
                failure.set(e.getCause());
            } catch (ReflectiveOperationException | RuntimeException e) {
                failure.set(e);
            }
        }, "doctest-" + s.block().page().replace('/', '-') + "-" + s.block().line());
        t.setContextClassLoader(loader);
        System.setOut(capture);
        System.setErr(capture);
        try {
            t.start();
            t.join(timeout.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
        String output = captured.toString(StandardCharsets.UTF_8);
        if (t.isAlive()) {
            t.interrupt();
            return s.block().where() + ": the ```java block did not finish within " + timeout.toSeconds()
                    + " s (stop its queries, e.g. in a wrap directive)" + tail(output);
        }
        Throwable f = failure.get();
        if (f != null) {
            StringBuilder trace = new StringBuilder();
            for (Throwable c = f; c != null; c = c.getCause()) {
                trace.append(trace.length() == 0 ? "" : "; caused by ").append(c);
                for (StackTraceElement e : c.getStackTrace()) {
                    if (e.getClassName().startsWith(s.packageName())) {
                        trace.append(" at ").append(s.where(e.getLineNumber()));
                        break;
                    }
                }
            }
            return s.block().where() + ": the ```java block failed: " + trace + tail(output);
        }
        return null;
    }

    private static String tail(String output) {
        String o = output.strip();
        if (o.isEmpty()) {
            return "";
        }
        return "; its output ended with: " + (o.length() > 1500 ? "..." + o.substring(o.length() - 1500) : o);
    }

    private static Method entry(Class<?> c) {
        for (Method m : c.getDeclaredMethods()) {
            if (!Modifier.isStatic(m.getModifiers())) {
                continue;
            }
            if (m.getName().equals("run") && m.getParameterCount() == 0) {
                return m;
            }
            if (m.getName().equals("main") && m.getParameterCount() == 1
                    && m.getParameterTypes()[0] == String[].class) {
                return m;
            }
        }
        return null;
    }
}
