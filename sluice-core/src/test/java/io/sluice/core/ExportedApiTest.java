package io.sluice.core;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The exported packages of sluice-core name no internal type in anything a caller can see: every public or
 * protected member of every public class (supertypes, fields, constructors, methods: parameters, returns, thrown
 * exceptions, type arguments and bounds) of {@link #EXPORTED} mentions no type of {@link #INTERNAL}. Otherwise a
 * user would have to import an internal package to call, implement or catch something of the API.
 */
class ExportedApiTest {
    static final List<String> EXPORTED = List.of("io.sluice.core", "io.sluice.core.sources", "io.sluice.core.sinks");
    static final List<String> INTERNAL = List.of("io.sluice.core.expr", "io.sluice.core.json",
            "io.sluice.core.checkpoint");

    @Test
    void noPublicSignatureOfAnExportedPackageNamesAnInternalType() throws Exception {
        List<Class<?>> classes = publicClassesOf(EXPORTED);
        assertThat(classes).contains(Sluice.class, CheckpointView.class, CheckpointView.Batch.class,
                io.sluice.core.sources.MemoryStream.class, io.sluice.core.sinks.MemorySink.class);

        List<String> leaks = new ArrayList<>();
        classes.forEach(c -> leaks.addAll(leaksOf(c, INTERNAL)));

        assertThat(leaks).as("public signatures of %s naming a type of %s", EXPORTED, INTERNAL).isEmpty();
    }

    /**
     * The engine lets its exceptions out of the API undeclared (they are unchecked: the checkpoint's, thrown by
     * {@code start()}, {@code CheckpointView.open} and as a query's failure cause), so no signature names them: a
     * caller can catch one by type only if it lives in an exported package.
     */
    @Test
    void everyPublicExceptionTypeOfSluiceCoreIsInAnExportedPackage() throws Exception {
        assertThat(publicClassesOf(INTERNAL)).filteredOn(Throwable.class::isAssignableFrom).isEmpty();
        assertThat(publicClassesOf(EXPORTED)).contains(CheckpointException.class, CorruptCheckpointException.class,
                UnsupportedCheckpointVersionException.class, CheckpointLockedException.class);
    }

    /** The check itself finds an internal type wherever a signature can hide one. */
    @Test
    void theCheckFindsInternalTypesInEveryPartOfASignature() {
        // java.io stands in for an internal package with a public exception, which this module no longer has.
        List<String> internal = List.of("io.sluice.core.checkpoint", "java.io");
        assertThat(leaksOf(Leaky.class, internal)).containsExactlyInAnyOrder(
                Leaky.class.getName() + ".field: io.sluice.core.checkpoint.OffsetSeq",
                Leaky.class.getName() + ".<init> parameter: io.sluice.core.checkpoint.OffsetSeq",
                Leaky.class.getName() + ".nested returns: io.sluice.core.checkpoint.OffsetSeq",
                Leaky.class.getName() + ".array parameter: io.sluice.core.checkpoint.OffsetSeq",
                Leaky.class.getName() + ".bounded type parameter: io.sluice.core.checkpoint.OffsetSeq",
                Leaky.class.getName() + ".bounded returns: io.sluice.core.checkpoint.OffsetSeq",
                Leaky.class.getName() + ".wildcard parameter: io.sluice.core.checkpoint.OffsetSeq",
                Leaky.class.getName() + ".throwing throws: java.io.IOException",
                Leaky.class.getName() + " implements: io.sluice.core.checkpoint.OffsetSeq");
        assertThat(leaksOf(Leaky.Hidden.class, internal)).as("private and package-private members are not API").isEmpty();
    }

    /** Every way a public signature can name an internal type, and (in Hidden) ways that do not count. */
    @SuppressWarnings("unused")
    public abstract static class Leaky implements java.util.function.Supplier<java.util.function.Supplier<
            io.sluice.core.checkpoint.OffsetSeq>> {
        public io.sluice.core.checkpoint.OffsetSeq field;

        protected Leaky(io.sluice.core.checkpoint.OffsetSeq seq) {
        }

        public abstract java.util.Optional<java.util.List<io.sluice.core.checkpoint.OffsetSeq>> nested();

        public abstract void array(io.sluice.core.checkpoint.OffsetSeq[][] seqs);

        public abstract <T extends io.sluice.core.checkpoint.OffsetSeq> T bounded();

        public abstract void wildcard(java.util.List<? super io.sluice.core.checkpoint.OffsetSeq> seqs);

        public abstract void throwing() throws java.io.IOException;

        static final class Hidden {
            io.sluice.core.checkpoint.OffsetSeq field;

            private Hidden(io.sluice.core.checkpoint.OffsetSeq seq) {
            }

            io.sluice.core.checkpoint.OffsetSeq get() {
                return null;
            }
        }
    }

    /** Where each public or protected member of {@code c} names an internal type, as {@code <where>: <type>}. */
    static List<String> leaksOf(Class<?> c, List<String> internal) {
        List<String> leaks = new ArrayList<>();
        check(c.getName() + " extends", c.getGenericSuperclass(), internal, leaks);
        for (Type t : c.getGenericInterfaces()) {
            check(c.getName() + " implements", t, internal, leaks);
        }
        for (Field f : c.getDeclaredFields()) {
            if (visible(f.getModifiers()) && !f.isSynthetic()) {
                check(c.getName() + "." + f.getName(), f.getGenericType(), internal, leaks);
            }
        }
        for (Constructor<?> k : c.getDeclaredConstructors()) {
            checkExecutable(c.getName() + ".<init>", k, internal, leaks);
        }
        for (Method m : c.getDeclaredMethods()) {
            checkExecutable(c.getName() + "." + m.getName(), m, internal, leaks);
            if (visible(m.getModifiers()) && !m.isSynthetic()) {
                check(c.getName() + "." + m.getName() + " returns", m.getGenericReturnType(), internal, leaks);
            }
        }
        return leaks;
    }

    private static void checkExecutable(String where, Executable e, List<String> internal, List<String> leaks) {
        if (!visible(e.getModifiers()) || e.isSynthetic()) {
            return;
        }
        for (Type p : e.getGenericParameterTypes()) {
            check(where + " parameter", p, internal, leaks);
        }
        for (Type x : e.getGenericExceptionTypes()) {
            check(where + " throws", x, internal, leaks);
        }
        for (TypeVariable<?> v : e.getTypeParameters()) {
            check(where + " type parameter", v, internal, leaks);
        }
    }

    private static boolean visible(int modifiers) {
        return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
    }

    private static void check(String where, Type type, List<String> internal, List<String> leaks) {
        Set<String> found = new HashSet<>();
        collect(type, internal, found, new HashSet<>());
        found.forEach(name -> leaks.add(where + ": " + name));
    }

    /** The internal classes {@code type} mentions, however deeply (arrays, type arguments, bounds). */
    private static void collect(Type type, List<String> internal, Set<String> found, Set<Type> seen) {
        if (type == null || !seen.add(type)) {
            return;
        }
        if (type instanceof Class<?> c) {
            while (c.isArray()) {
                c = c.getComponentType();
            }
            if (internal.contains(c.getPackageName())) {
                found.add(c.getName());
            }
        } else if (type instanceof ParameterizedType p) {
            collect(p.getRawType(), internal, found, seen);
            collect(p.getOwnerType(), internal, found, seen);
            for (Type a : p.getActualTypeArguments()) {
                collect(a, internal, found, seen);
            }
        } else if (type instanceof WildcardType w) {
            Stream.concat(Stream.of(w.getUpperBounds()), Stream.of(w.getLowerBounds()))
                    .forEach(b -> collect(b, internal, found, seen));
        } else if (type instanceof GenericArrayType a) {
            collect(a.getGenericComponentType(), internal, found, seen);
        } else if (type instanceof TypeVariable<?> v) {
            for (Type b : v.getBounds()) {
                collect(b, internal, found, seen);
            }
        }
    }

    /** Every class of these packages (not their subpackages) a caller can name: public, and nested only in such. */
    static List<Class<?>> publicClassesOf(List<String> packages) throws IOException, URISyntaxException,
            ClassNotFoundException {
        Path root = Path.of(Sluice.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        assertThat(root).as("sluice-core's classes folder").isDirectory();
        List<Class<?>> classes = new ArrayList<>();
        for (String pkg : packages) {
            Path dir = root.resolve(pkg.replace('.', '/'));
            List<Path> files;
            try (Stream<Path> list = Files.list(dir)) {
                files = list.filter(f -> f.getFileName().toString().endsWith(".class")).sorted().toList();
            }
            for (Path f : files) {
                String simple = f.getFileName().toString().replaceFirst("\\.class$", "");
                if (simple.equals("package-info") || simple.equals("module-info")) {
                    continue;
                }
                Class<?> c = Class.forName(pkg + "." + simple, false, ExportedApiTest.class.getClassLoader());
                if (callerCanName(c)) {
                    classes.add(c);
                }
            }
        }
        return classes;
    }

    private static boolean callerCanName(Class<?> c) {
        for (Class<?> k = c; k != null; k = k.getDeclaringClass()) {
            if (k.isAnonymousClass() || k.isLocalClass() || k.isSynthetic() || !visible(k.getModifiers())) {
                return false;
            }
        }
        return true;
    }
}
