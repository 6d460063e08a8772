package io.sluice.s3;

import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.S3Object;
import software.amazon.awssdk.utils.DateUtils;
import software.amazon.awssdk.utils.http.SdkHttpUtils;

import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A scanner for the body of a successful ListObjectsV2 response ({@code <ListBucketResult>}), in place of the AWS
 * SDK's unmarshalling (a StAX event reader, a DOM of {@code XmlElement}s, then model objects), which costs the
 * client about three times the server's CPU on a large listing.
 *
 * <p>It reads only what the listing needs: each {@code Contents}' Key, Size, LastModified and ETag, and the
 * result's IsTruncated, NextContinuationToken and EncodingType. Values come out as the SDK gives them: the text
 * as written with the five predefined entities and character references decoded, CDATA sections kept verbatim,
 * line ends normalised as XML requires (CR LF and a lone CR read as LF), no trimming; keys URL-decoded as the
 * SDK's interceptor does when the result says {@code EncodingType} url; LastModified as the SDK's ISO 8601
 * parse. Anything it does not expect (a DTD, an unknown entity, a truncated body, a bad number) makes it decline
 * ({@link #parse} returns null) rather than guess, so the caller lets the SDK read that body instead.
 */
final class S3ListingParser {

    /** One listed key (a directory marker included), as the SDK's {@link S3Object} would give it. */
    record Entry(String key, long size, long lastModifiedMillis, String eTag) {
    }

    /** One page: its keys in the order listed, whether more follow, and the token for the next page. */
    record Page(List<Entry> entries, boolean truncated, String nextContinuationToken) {

        /** The same page from the SDK's own response (the fallback when the scanner declined a body). */
        static Page of(ListObjectsV2Response r) {
            List<Entry> entries = new ArrayList<>(r.contents().size());
            for (S3Object o : r.contents()) {
                entries.add(new Entry(o.key(), o.size(), o.lastModified().toEpochMilli(), o.eTag()));
            }
            return new Page(entries, Boolean.TRUE.equals(r.isTruncated()), r.nextContinuationToken());
        }
    }

    private S3ListingParser() {
    }

    /** Why the scanner declines a body; never leaves this class. */
    private static final class Decline extends Exception {
        Decline(String why) {
            super(why, null, false, false);
        }
    }

    /**
     * The page in a UTF-8 {@code ListBucketResult} document, or null when the document is anything else (another
     * root, such as an {@code Error}) or holds something this scanner does not read exactly.
     */
    static Page parse(byte[] xml) {
        try {
            return new Scan(xml).run();
        } catch (Decline | RuntimeException e) {
            return null;
        }
    }

    /** Which value a captured element holds. */
    private enum Field { KEY, SIZE, LAST_MODIFIED, ETAG, IS_TRUNCATED, NEXT_TOKEN, ENCODING_TYPE }

    private static final class Scan {
        private final byte[] x;
        private int i;
        private int depth;
        private boolean inContents;
        private Field field; // the element whose text is being collected, if any
        private byte[] text = new byte[256];
        private int textLength;
        // The current Contents' values.
        private String key;
        private long size = -1;
        private long lastModified;
        private String eTag;
        private boolean hasLastModified;
        // The result's values.
        private final List<Entry> entries = new ArrayList<>();
        private boolean truncated;
        private String nextToken;
        private String encodingType;

        Scan(byte[] x) {
            this.x = x;
        }

        Page run() throws Decline {
            boolean rootSeen = false;
            while (i < x.length) {
                byte c = x[i];
                if (c != '<') {
                    int start = i;
                    while (i < x.length && x[i] != '<') {
                        i++;
                    }
                    if (field != null) {
                        appendText(start, i);
                    } else if (depth == 0 && !blank(start, i)) {
                        throw new Decline("text outside the root element");
                    } else if (has('&', start, i)) {
                        appendText(start, i); // unread, but a reference the SDK would refuse is declined here too
                        textLength = 0;
                    }
                    continue;
                }
                if (startsWith("<?") || startsWith("<!--")) {
                    if (field != null) {
                        // The SDK keeps only the text after it (it joins adjacent text alone): not worth copying.
                        throw new Decline("a comment or processing instruction inside " + field);
                    }
                    i = after(startsWith("<?") ? "?>" : "-->");
                } else if (startsWith("<![CDATA[")) {
                    int start = i + 9;
                    i = after("]]>");
                    if (field != null) {
                        appendRaw(start, i - 3);
                    } else if (depth == 0) {
                        throw new Decline("CDATA outside the root element");
                    }
                } else if (startsWith("<!")) {
                    throw new Decline("a DTD"); // the SDK's parser refuses DTDs too
                } else if (startsWith("</")) {
                    i = after(">");
                    endElement();
                    if (depth == 0) {
                        return result();
                    }
                } else {
                    String name = startTag();
                    if (!rootSeen) {
                        if (!"ListBucketResult".equals(name)) {
                            return null; // an Error, or some other document: the SDK reads it
                        }
                        rootSeen = true;
                    }
                }
            }
            throw new Decline("the document ends before its root element does");
        }

        /** Reads a start tag at i; returns its local name. A self-closing tag is a start and an end. */
        private String startTag() throws Decline {
            int start = ++i;
            while (i < x.length && x[i] != '>' && x[i] != '/' && !space(x[i])) {
                i++;
            }
            int end = i;
            // Attributes: skipped, quoted values may hold '>' or '/'.
            boolean selfClosing = false;
            while (true) {
                if (i >= x.length) {
                    throw new Decline("an unterminated tag");
                }
                byte c = x[i];
                if (c == '"' || c == '\'') {
                    int q = i + 1;
                    while (q < x.length && x[q] != c) {
                        q++;
                    }
                    i = q + 1;
                } else if (c == '/' && i + 1 < x.length && x[i + 1] == '>') {
                    selfClosing = true;
                    i += 2;
                    break;
                } else if (c == '>') {
                    i++;
                    break;
                } else {
                    i++;
                }
            }
            int colon = end;
            while (colon > start && x[colon - 1] != ':') {
                colon--;
            }
            String name = new String(x, colon, end - colon, StandardCharsets.US_ASCII);
            if (name.isEmpty()) {
                throw new Decline("a tag without a name");
            }
            startElement(name);
            if (selfClosing) {
                endElement();
            }
            return name;
        }

        private void startElement(String name) throws Decline {
            depth++;
            if (field != null) {
                throw new Decline("an element inside " + field); // mixed content: not a value the SDK reads so
            }
            if (depth == 2) {
                switch (name) {
                    case "Contents" -> {
                        inContents = true;
                        key = null;
                        size = -1;
                        eTag = null;
                        hasLastModified = false;
                    }
                    case "IsTruncated" -> field = Field.IS_TRUNCATED;
                    case "NextContinuationToken" -> field = Field.NEXT_TOKEN;
                    case "EncodingType" -> field = Field.ENCODING_TYPE;
                    default -> { }
                }
            } else if (depth == 3 && inContents) {
                switch (name) {
                    case "Key" -> field = Field.KEY;
                    case "Size" -> field = Field.SIZE;
                    case "LastModified" -> field = Field.LAST_MODIFIED;
                    case "ETag" -> field = Field.ETAG;
                    default -> { }
                }
            }
            textLength = 0;
        }

        private void endElement() throws Decline {
            if (field != null) {
                String v = new String(text, 0, textLength, StandardCharsets.UTF_8);
                switch (field) {
                    case KEY -> key = v;
                    case SIZE -> size = Long.parseLong(v);
                    case LAST_MODIFIED -> {
                        lastModified = millis(v);
                        hasLastModified = true;
                    }
                    case ETAG -> eTag = v;
                    case IS_TRUNCATED -> truncated = Boolean.parseBoolean(v);
                    case NEXT_TOKEN -> nextToken = v;
                    case ENCODING_TYPE -> encodingType = v;
                }
                field = null;
            } else if (depth == 2 && inContents) {
                if (key == null || size < 0 || !hasLastModified) {
                    throw new Decline("a Contents without its Key, Size or LastModified");
                }
                entries.add(new Entry(key, size, lastModified, eTag));
                inContents = false;
            }
            depth--;
            if (depth < 0) {
                throw new Decline("an end tag without a start");
            }
        }

        private Page result() {
            List<Entry> out = entries;
            if ("url".equals(encodingType)) {
                // As the SDK's DecodeUrlEncodedResponseInterceptor: keys decoded, the token left as it is.
                out = new ArrayList<>(entries.size());
                for (Entry e : entries) {
                    out.add(new Entry(SdkHttpUtils.urlDecode(e.key()), e.size(), e.lastModifiedMillis(), e.eTag()));
                }
            }
            return new Page(out, truncated, nextToken);
        }

        /** Text with references decoded and line ends normalised. */
        private void appendText(int from, int to) throws Decline {
            int k = from;
            while (k < to) {
                byte c = x[k];
                if (c == '&') {
                    int semi = k + 1;
                    while (semi < to && x[semi] != ';') {
                        semi++;
                    }
                    if (semi >= to) {
                        throw new Decline("an unterminated reference");
                    }
                    reference(k + 1, semi);
                    k = semi + 1;
                } else if (c == '\r') {
                    put((byte) '\n');
                    k += k + 1 < to && x[k + 1] == '\n' ? 2 : 1;
                } else {
                    put(c);
                    k++;
                }
            }
        }

        /** CDATA: verbatim, but line ends are normalised there too (XML does so before parsing). */
        private void appendRaw(int from, int to) {
            for (int k = from; k < to; k++) {
                byte c = x[k];
                if (c == '\r') {
                    put((byte) '\n');
                    if (k + 1 < to && x[k + 1] == '\n') {
                        k++;
                    }
                } else {
                    put(c);
                }
            }
        }

        private void reference(int from, int to) throws Decline {
            String ref = new String(x, from, to - from, StandardCharsets.US_ASCII);
            switch (ref) {
                case "amp" -> put((byte) '&');
                case "lt" -> put((byte) '<');
                case "gt" -> put((byte) '>');
                case "quot" -> put((byte) '"');
                case "apos" -> put((byte) '\'');
                default -> {
                    if (ref.length() < 2 || ref.charAt(0) != '#') {
                        throw new Decline("the entity &" + ref + ";");
                    }
                    int cp;
                    try {
                        cp = ref.charAt(1) == 'x'
                                ? Integer.parseInt(ref.substring(2), 16) : Integer.parseInt(ref.substring(1), 10);
                    } catch (NumberFormatException e) {
                        throw new Decline("the reference &" + ref + ";");
                    }
                    if (ref.charAt(1) == '+' || ref.length() > 2 && ref.charAt(2) == '+' || !xmlChar(cp)) {
                        throw new Decline("the reference &" + ref + ";");
                    }
                    for (byte b : new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8)) {
                        put(b);
                    }
                }
            }
        }

        /** XML 1.0's Char production: what a character reference may name. */
        private static boolean xmlChar(int cp) {
            return cp == 0x9 || cp == 0xA || cp == 0xD || cp >= 0x20 && cp <= 0xD7FF
                    || cp >= 0xE000 && cp <= 0xFFFD || cp >= 0x10000 && cp <= 0x10FFFF;
        }

        private void put(byte b) {
            if (textLength == text.length) {
                text = Arrays.copyOf(text, text.length * 2);
            }
            text[textLength++] = b;
        }

        private boolean startsWith(String s) {
            if (i + s.length() > x.length) {
                return false;
            }
            for (int k = 0; k < s.length(); k++) {
                if (x[i + k] != s.charAt(k)) {
                    return false;
                }
            }
            return true;
        }

        /** The index just past the next {@code end} from i. */
        private int after(String end) throws Decline {
            outer:
            for (int k = i; k + end.length() <= x.length; k++) {
                for (int m = 0; m < end.length(); m++) {
                    if (x[k + m] != end.charAt(m)) {
                        continue outer;
                    }
                }
                return k + end.length();
            }
            throw new Decline("no " + end);
        }

        private boolean has(char c, int from, int to) {
            for (int k = from; k < to; k++) {
                if (x[k] == c) {
                    return true;
                }
            }
            return false;
        }

        private boolean blank(int from, int to) {
            for (int k = from; k < to; k++) {
                if (!space(x[k])) {
                    return false;
                }
            }
            return true;
        }

        private static boolean space(byte c) {
            return c == ' ' || c == '\t' || c == '\n' || c == '\r';
        }
    }

    /**
     * LastModified in milliseconds, as the SDK's {@link DateUtils#parseIso8601Date}: S3's usual
     * {@code yyyy-MM-ddTHH:mm:ss.SSSZ} by hand (that parse is most of a page's cost otherwise), anything else by
     * the SDK's own parse, which also gives the SDK's error for a bad one.
     */
    static long millis(String t) {
        if (t.length() == 24 && t.charAt(4) == '-' && t.charAt(7) == '-' && t.charAt(10) == 'T'
                && t.charAt(13) == ':' && t.charAt(16) == ':' && t.charAt(19) == '.' && t.charAt(23) == 'Z') {
            int year = digits(t, 0, 4);
            int month = digits(t, 5, 7);
            int day = digits(t, 8, 10);
            int hour = digits(t, 11, 13);
            int minute = digits(t, 14, 16);
            int second = digits(t, 17, 19);
            int milli = digits(t, 20, 23);
            if (year >= 0 && month >= 0 && day >= 0 && hour >= 0 && hour < 24 && minute >= 0 && minute < 60
                    && second >= 0 && second < 60 && milli >= 0) {
                try {
                    long days = LocalDate.of(year, month, day).toEpochDay();
                    return ((days * 24 + hour) * 60 + minute) * 60_000L + second * 1000L + milli;
                } catch (DateTimeException e) {
                    // not a date: the SDK's parse says so in its own words
                }
            }
        }
        return DateUtils.parseIso8601Date(t).toEpochMilli();
    }

    /** The decimal number in t[from, to), or -1 when a character there is not a digit. */
    private static int digits(String t, int from, int to) {
        int n = 0;
        for (int k = from; k < to; k++) {
            char c = t.charAt(k);
            if (c < '0' || c > '9') {
                return -1;
            }
            n = n * 10 + (c - '0');
        }
        return n;
    }
}
