package io.sluice.docs;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The build's check of the module boundaries, on compiled classes (the equivalent of a JPMS {@code module-info}
 * that exports only the public packages): which classes a module's classes reference, read from each class file's
 * constant pool (class entries, and the field, method and generic signatures that name types), string constants
 * left out. {@link ModuleBoundariesTest} runs it over every module.
 */
final class ModuleBoundaries {
    /** sluice-core's packages that are not part of its API: no other module may reference them. */
    static final List<String> CORE_INTERNAL = List.of("io.sluice.core.expr", "io.sluice.core.json",
            "io.sluice.core.checkpoint");
    private static final Pattern TYPE_IN_SIGNATURE = Pattern.compile("L([A-Za-z_$][\\w$]*(?:/[A-Za-z_$][\\w$]*)+)[;<]");

    private ModuleBoundaries() {
    }

    /** True for a class name (dotted) in one of the packages or their subpackages. */
    static Predicate<String> inPackages(List<String> packages) {
        return name -> packages.stream().anyMatch(p -> name.startsWith(p + "."));
    }

    /**
     * The references of the module's own classes under {@code classes} (a folder of class files or a jar), those in
     * package {@code ownPackage} or below, that {@code forbidden} refuses, each as {@code "a.B -> c.D"}, sorted.
     * Other classes are left out: a module's output may bundle its dependencies (sluice-examples-all.jar, the demo jar, does).
     */
    static List<String> violations(Path classes, String ownPackage, Predicate<String> forbidden) {
        Set<String> out = new TreeSet<>();
        forEachClass(classes, (name, bytes) -> {
            if (!name.startsWith(ownPackage + ".")) {
                return;
            }
            for (String ref : references(bytes)) {
                if (forbidden.test(ref)) {
                    out.add(name + " -> " + ref);
                }
            }
        });
        return new ArrayList<>(out);
    }

    /**
     * Where the class was loaded from: its module's {@code target/classes} folder, also when the class path names
     * the module's jar in {@code target/} (after {@code package}), else the jar.
     */
    static Path locationOf(Class<?> c) {
        Path p;
        try {
            p = Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        Path classes = p.getParent() == null ? null : p.getParent().resolve("classes");
        return Files.isRegularFile(p) && classes != null && Files.isDirectory(classes) ? classes : p;
    }

    private interface ClassVisitor {
        void visit(String className, byte[] bytes) throws IOException;
    }

    private static void forEachClass(Path classes, ClassVisitor visitor) {
        try {
            if (Files.isDirectory(classes)) {
                List<Path> files;
                try (Stream<Path> s = Files.walk(classes)) {
                    files = s.filter(p -> p.toString().endsWith(".class")).sorted().toList();
                }
                for (Path p : files) {
                    String rel = classes.relativize(p).toString().replace('\\', '/');
                    visitor.visit(className(rel), Files.readAllBytes(p));
                }
            } else {
                try (JarFile jar = new JarFile(classes.toFile())) {
                    for (JarEntry e : jar.stream().sorted((a, b) -> a.getName().compareTo(b.getName())).toList()) {
                        if (e.getName().endsWith(".class") && !e.getName().startsWith("META-INF/")) {
                            try (InputStream in = jar.getInputStream(e)) {
                                visitor.visit(className(e.getName()), in.readAllBytes());
                            }
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the classes of " + classes, e);
        }
    }

    private static String className(String path) {
        return path.substring(0, path.length() - ".class".length()).replace('/', '.');
    }

    /** The classes (dotted names) a class file references: class entries and types named in signatures. */
    static Set<String> references(byte[] classFile) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(classFile));
        if (in.readInt() != 0xCAFEBABE) {
            throw new IOException("not a class file");
        }
        in.readUnsignedShort();
        in.readUnsignedShort();
        int count = in.readUnsignedShort();
        String[] utf8 = new String[count];
        List<Integer> classNames = new ArrayList<>();
        BitSet stringConstants = new BitSet(count);
        for (int i = 1; i < count; i++) {
            int tag = in.readUnsignedByte();
            switch (tag) {
                case 1 -> utf8[i] = in.readUTF();
                case 7 -> classNames.add(in.readUnsignedShort());
                case 8 -> stringConstants.set(in.readUnsignedShort());
                case 16, 19, 20 -> in.readUnsignedShort();
                case 15 -> {
                    in.readUnsignedByte();
                    in.readUnsignedShort();
                }
                case 3, 4, 9, 10, 11, 12, 17, 18 -> in.readInt();
                case 5, 6 -> {
                    in.readLong();
                    i++; // takes two slots
                }
                default -> throw new IOException("unknown constant pool tag " + tag + " at " + i);
            }
        }
        Set<String> refs = new TreeSet<>();
        for (int idx : classNames) {
            String n = utf8[idx];
            if (n.startsWith("[")) {
                addSignatureTypes(n, refs);
            } else {
                refs.add(n.replace('/', '.'));
            }
        }
        for (int i = 1; i < count; i++) {
            if (utf8[i] != null && !stringConstants.get(i)) {
                addSignatureTypes(utf8[i], refs);
            }
        }
        return refs;
    }

    private static void addSignatureTypes(String s, Set<String> refs) {
        if (s.indexOf('L') < 0 || s.indexOf('/') < 0) {
            return;
        }
        Matcher m = TYPE_IN_SIGNATURE.matcher(s);
        while (m.find()) {
            refs.add(m.group(1).replace('/', '.'));
        }
    }
}
