package io.sluice.cli;

import java.io.Closeable;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;

/**
 * The plugins' classes and resources, from several class loaders over one parent (the CLI's): each built plugin
 * jar bundles its own libraries, and those must not meet (Delta Kernel's parquet-java 1.12, Iceberg's 1.16 and
 * sluice-parquet's 1.17 have the same class names), so each gets a loader of its own; the jars of a user's
 * {@code --plugins} folder share one (a connector may come with its libraries as separate jars). Classes and
 * resources are looked up in the CLI first, then in the parts in order; services ({@code META-INF/services}) are
 * the union of every part's, and each provider class is defined by the part that holds it, so it links against
 * that part's libraries.
 */
final class PluginLoader extends ClassLoader implements Closeable {

    private final List<URLClassLoader> parts;

    PluginLoader(List<URLClassLoader> parts, ClassLoader parent) {
        super("sluice-plugins", parent);
        this.parts = List.copyOf(parts);
    }

    @Override
    protected Class<?> findClass(String name) throws ClassNotFoundException {
        for (URLClassLoader part : parts) {
            try {
                return part.loadClass(name);
            } catch (ClassNotFoundException e) {
                // not in this part: the next one
            }
        }
        throw new ClassNotFoundException(name);
    }

    @Override
    protected URL findResource(String name) {
        for (URLClassLoader part : parts) {
            URL url = part.findResource(name);
            if (url != null) {
                return url;
            }
        }
        return null;
    }

    @Override
    protected Enumeration<URL> findResources(String name) throws IOException {
        List<URL> all = new ArrayList<>();
        for (URLClassLoader part : parts) {
            all.addAll(Collections.list(part.findResources(name)));
        }
        return Collections.enumeration(all);
    }

    /** The jars, in lookup order (for messages and tests). */
    List<URL> urls() {
        List<URL> urls = new ArrayList<>();
        parts.forEach(p -> urls.addAll(List.of(p.getURLs())));
        return urls;
    }

    @Override
    public void close() throws IOException {
        IOException first = null;
        for (URLClassLoader part : parts) {
            try {
                part.close();
            } catch (IOException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
