package io.sluice.api.io;

import io.sluice.api.InvalidOptionException;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one place where a path a user gives (an option such as {@code checkpointLocation} or a file source's
 * {@code path}, or a command-line flag) becomes a local {@link Path}. Sluice reads and writes the local file system
 * only, so every path option goes through {@link #of(String, String)} before anything is created or read.
 *
 * <p>What a caller may rely on:
 * <ul>
 *   <li>A plain path ({@code /data/in}, {@code data/in}, {@code ./in}) is taken as it is, made absolute against
 *       the working directory.</li>
 *   <li>A {@code file:} URI, in the forms Spark and Hadoop accept ({@code file:/data/in}, {@code file:///data/in},
 *       {@code file://localhost/data/in}), names the local path after the prefix; {@code %XX} escapes in it are
 *       decoded as UTF-8, as {@code java.net.URI#getPath()} would. Any other character, glob characters
 *       ({@code * ? [ ] { }}) included, is kept as written, so a glob may be given as a {@code file:} URI.</li>
 *   <li>Any other scheme, that is a value starting with {@code <letters, digits, + - .>:/} whose first character is
 *       a letter ({@code s3://}, {@code s3a://}, {@code hdfs:/}, {@code gs://}, {@code abfss://}, {@code wasbs://},
 *       {@code foo://}), is refused with an {@link InvalidOptionException} naming the option, the value and the
 *       scheme, before anything is created, so such a value never becomes a local folder named {@code s3a:}.
 *       A single letter before the colon ({@code C:/data}) is a Windows drive, not a scheme, and is taken as a
 *       plain path. A colon not followed by {@code /} ({@code a:b}) is part of a plain file name.</li>
 *   <li>An empty or blank value is refused (it would name the working folder).</li>
 *   <li>The result is absolute but not normalized: {@code ..} is kept, callers normalize where they compare.</li>
 * </ul>
 */
public final class LocalPaths {

    /** A URI scheme as RFC 3986 defines it, then {@code :/}; two or more characters (one is a Windows drive). */
    private static final Pattern SCHEME = Pattern.compile("^([a-zA-Z][a-zA-Z0-9+.-]+):/.*", Pattern.DOTALL);
    /** {@code file:} then an optional {@code //authority}, then the path. */
    private static final Pattern FILE_URI = Pattern.compile("^(?i:file):(//([^/]*))?(/.*)?$", Pattern.DOTALL);

    private LocalPaths() {
    }

    /**
     * The local path {@code value} names, absolute.
     *
     * @param option the option or flag the value was given for, as the user wrote it (for the message)
     * @param value  what the user gave
     * @throws InvalidOptionException for a blank value, a scheme other than {@code file:}, a {@code file:} URI with a
     *                                host other than {@code localhost} or without a path, or a value that is not a
     *                                valid path
     */
    public static Path of(String option, String value) {
        Objects.requireNonNull(option, "option");
        Objects.requireNonNull(value, "value");
        if (value.isBlank()) {
            // Path.of("") is the working folder: never what an empty option meant.
            throw new InvalidOptionException(option, value, "a path is accepted, not an empty value");
        }
        String local;
        if (value.regionMatches(true, 0, "file:", 0, 5)) {
            Matcher file = FILE_URI.matcher(value);
            String host = file.matches() ? file.group(2) : null;
            String path = file.matches() ? file.group(3) : null;
            if (host != null && !host.isEmpty() && !host.equalsIgnoreCase("localhost")) {
                throw new InvalidOptionException(option, value, "a file: URI names a local path and has no host, "
                        + "but this one names the host '" + host + "'; Sluice reads and writes local paths only: "
                        + "give a plain path (/data/in) or a file: URI (file:/data/in, file:///data/in)");
            }
            if (path == null) {
                throw new InvalidOptionException(option, value, "a file: URI with an absolute path is accepted, "
                        + "such as file:/data/in or file:///data/in");
            }
            local = decode(option, value, path);
        } else {
            Optional<String> scheme = scheme(value);
            if (scheme.isPresent()) {
                throw new InvalidOptionException(option, value, "the scheme '" + scheme.get() + "' is not "
                        + "supported: Sluice reads and writes local paths only; give a plain path (/data/in) or a "
                        + "file: URI (file:/data/in, file:///data/in)");
            }
            local = value;
        }
        try {
            return Path.of(local).toAbsolutePath();
        } catch (InvalidPathException e) {
            throw new InvalidOptionException(option, value, "a valid local path is accepted (" + e.getReason()
                    + ")");
        }
    }

    /**
     * The URI scheme {@code value} starts with, lower case, if it names one other than a Windows drive letter:
     * {@code "s3a"} for {@code s3a://bucket/x}, {@code "file"} for {@code file:/x}, empty for {@code /x},
     * {@code x}, {@code C:/x}. A {@code file:} value is a scheme too, although {@link #of} accepts it.
     */
    public static Optional<String> scheme(String value) {
        if (value.regionMatches(true, 0, "file:", 0, 5)) {
            return Optional.of("file");
        }
        Matcher m = SCHEME.matcher(value);
        return m.matches() ? Optional.of(m.group(1).toLowerCase(Locale.ROOT)) : Optional.empty();
    }

    /** Decodes {@code %XX} escapes as UTF-8 bytes; a {@code %} not followed by two hex digits is refused. */
    private static String decode(String option, String value, String path) {
        if (path.indexOf('%') < 0) {
            return path;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        StringBuilder out = new StringBuilder(path.length());
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c != '%') {
                flush(bytes, out);
                out.append(c);
                continue;
            }
            int hi = i + 2 < path.length() ? Character.digit(path.charAt(i + 1), 16) : -1;
            int lo = hi >= 0 ? Character.digit(path.charAt(i + 2), 16) : -1;
            if (lo < 0) {
                throw new InvalidOptionException(option, value, "in a file: URI '%' starts an escape of two hex "
                        + "digits (%20 for a space, %25 for '%'); give a plain path to use the characters as they are");
            }
            bytes.write(hi * 16 + lo);
            i += 2;
        }
        flush(bytes, out);
        return out.toString();
    }

    private static void flush(ByteArrayOutputStream bytes, StringBuilder out) {
        if (bytes.size() > 0) {
            out.append(bytes.toString(StandardCharsets.UTF_8));
            bytes.reset();
        }
    }
}
