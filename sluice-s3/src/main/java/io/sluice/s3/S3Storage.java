package io.sluice.s3;

import io.sluice.api.io.Storage;
import io.sluice.api.io.StoredObject;
import io.sluice.api.io.VersionChangedException;
import io.sluice.api.io.WholeObjectOutput;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedMultipartUpload;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.URI;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@link Storage} on S3 and S3-compatible stores, through the AWS SDK v2's sync client over the JDK's URL
 * connection. One instance serves every bucket of its scheme; each bucket gets its own client (its settings may
 * differ: {@code fs.s3a.bucket.<b>.*}), made on first use and closed by {@link #close()}.
 *
 * <ul>
 *   <li>Listing: ListObjectsV2 pages (their bodies read by {@link S3ListingParser}, not the SDK's unmarshalling) of up to {@code fs.s3a.paging.maximum} keys (5,000 asked, as S3A; AWS S3
 *       returns at most 1,000), no delimiter, in the store's key order; keys ending in
 *       {@code /} (directory markers) are skipped. {@link #listRequests()} and {@link #keysListed()} count them.</li>
 *   <li>Reads: GET with {@code If-Match} on the version tag (the ETag) → 412 is {@link VersionChangedException};
 *       a connection dropped mid-read is resumed with a ranged GET still pinned to the ETag the first response
 *       gave, so the bytes come from one version.</li>
 *   <li>Writes: PUT {@code If-None-Match: *} (exclusive create), PUT {@code If-Match} (replace if version), a
 *       multipart upload completed only at close (with {@code If-None-Match: *} unless overwriting) for outputs
 *       past 8 MiB; a conflicting concurrent conditional write (409) is retried.</li>
 *   <li>Errors name the bucket, the endpoint and where the credentials came from, never a secret; transient
 *       failures (503, throttling, dropped connections) are retried by the SDK ({@code fs.s3a.attempts.maximum},
 *       exponential backoff with jitter).</li>
 * </ul>
 */
final class S3Storage implements Storage {
    private static final Logger LOG = LoggerFactory.getLogger(S3Storage.class);
    static final int PART_SIZE = 8 * 1024 * 1024;
    private static final int CONFLICT_RETRIES = 5;

    private final Map<String, String> conf;
    private final Map<String, Bucket> buckets = new ConcurrentHashMap<>();
    private final AtomicLong listRequests = new AtomicLong();
    private final AtomicLong keysListed = new AtomicLong();
    private final AtomicLong pagesScanned = new AtomicLong();
    private volatile boolean closed;

    S3Storage(Map<String, String> conf) {
        // In order: a later entry (the query's option) wins over an earlier one (the engine's) of the same setting.
        this.conf = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(conf));
    }

    /** One bucket's client and settings. */
    private record Bucket(S3Settings settings, S3Client client) {
    }

    private Bucket bucket(String name) {
        if (closed) {
            throw new IllegalStateException("S3 storage is closed");
        }
        return buckets.computeIfAbsent(name, b -> {
            S3Settings s = S3Options.resolve(b, conf);
            return new Bucket(s, client(s));
        });
    }

    private static S3Client client(S3Settings s) {
        AwsCredentialsProvider credentials = credentials(s);
        Region region = region(s);
        var b = S3Client.builder()
                .httpClient(UrlConnectionHttpClient.builder()
                        .connectionTimeout(Duration.ofMillis(s.connectTimeoutMs()))
                        .socketTimeout(Duration.ofSeconds(60))
                        .build())
                .credentialsProvider(credentials)
                .region(region)
                .forcePathStyle(s.pathStyle())
                // As S3A (fs.s3a.checksum.calculation.enabled false): many S3-compatible stores reject the
                // SDK's newer default of trailing checksums on every upload.
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                .overrideConfiguration(c -> c.retryStrategy(AwsRetryStrategy.standardRetryStrategy().toBuilder()
                        .maxAttempts(s.attempts()).build())
                        // Listing pages read by our scanner, not the SDK's DOM: see ListingInterceptor.
                        .addExecutionInterceptor(new ListingInterceptor()));
        s.endpoint().ifPresent(b::endpointOverride);
        return b.build();
    }

    /** fs.s3a.access.key and fs.s3a.secret.key (and fs.s3a.session.token), else the SDK's default chain. */
    static AwsCredentialsProvider credentials(S3Settings s) {
        if (s.accessKey().isPresent() && s.secretKey().isPresent()) {
            return StaticCredentialsProvider.create(s.sessionToken().isPresent()
                    ? AwsSessionCredentials.create(s.accessKey().get(), s.secretKey().get(), s.sessionToken().get())
                    : AwsBasicCredentials.create(s.accessKey().get(), s.secretKey().get()));
        }
        return DefaultCredentialsProvider.builder().build();
    }

    /** fs.s3a.endpoint.region; else us-east-1 with a custom endpoint; else the SDK's region chain, else us-east-1. */
    static Region region(S3Settings s) {
        return Region.of(s.region().orElseGet(() -> {
            if (s.endpoint().isPresent()) {
                return "us-east-1"; // a custom endpoint's region is rarely configured anywhere else
            }
            try {
                return new DefaultAwsRegionProviderChain().getRegion().id();
            } catch (SdkClientException e) {
                return "us-east-1";
            }
        }));
    }

    /** ListObjectsV2 requests sent since this storage was made (one-key status listings included). */
    @Override
    public long listRequests() {
        return listRequests.get();
    }

    /** Keys those requests returned (directory markers included). */
    long keysListed() {
        return keysListed.get();
    }

    /** For tests: listing pages read by {@link S3ListingParser} (the others, the SDK read: status(), declined). */
    long pagesScanned() {
        return pagesScanned.get();
    }

    /**
     * A one-key listing (ListObjectsV2 with the key as prefix, one key) rather than a HEAD: the listing's
     * LastModified has the precision of every other listing (HEAD's Last-Modified header has whole seconds only, and
     * the file source compares the time seen at listing with the time when cleaning), and a missing bucket is an
     * error with a code (a HEAD's 404 has no body). Same cost: one request.
     */
    @Override
    public Optional<StoredObject> status(String uri) throws IOException {
        S3Uri u = S3Uri.parse(uri);
        if (u.key().isEmpty() || u.key().endsWith("/")) {
            return Optional.empty();
        }
        Bucket b = bucket(u.bucket());
        ListObjectsV2Response r;
        try {
            r = b.client().listObjectsV2(l -> l.bucket(u.bucket()).prefix(u.key()).maxKeys(1));
        } catch (SdkException e) {
            throw translate(e, b, uri, "read the status of");
        }
        listRequests.incrementAndGet();
        keysListed.addAndGet(r.contents().size());
        for (S3Object o : r.contents()) {
            if (o.key().equals(u.key())) {
                return Optional.of(new StoredObject(uri, o.size(), o.lastModified().toEpochMilli(), o.eTag()));
            }
        }
        return Optional.empty();
    }

    /** Pages of {@value #PROBE_PAGE} keys: enough to pass a few directory markers without a full page's cost. */
    @Override
    public boolean anyUnder(String prefix) throws IOException {
        boolean[] any = {false};
        list(prefix, null, PROBE_PAGE, o -> {
            any[0] = true;
            return false;
        });
        return any[0];
    }

    private static final int PROBE_PAGE = 10;

    @Override
    public void list(String prefix, String startAfter, ListVisitor visitor) throws IOException {
        list(prefix, startAfter, 0, visitor);
    }

    /** A listing in pages of {@code page} keys, or of {@code fs.s3a.paging.maximum} when 0. */
    private void list(String prefix, String startAfter, int page, ListVisitor visitor) throws IOException {
        S3Uri u = S3Uri.parse(prefix);
        Bucket b = bucket(u.bucket());
        String after = startAfter == null ? null : S3Uri.parse(startAfter).key();
        String token = null;
        do {
            ListObjectsV2Request.Builder req = ListObjectsV2Request.builder().bucket(u.bucket()).prefix(u.key())
                    .maxKeys(page > 0 ? page : b.settings().pagingMaximum());
            if (token != null) {
                req.continuationToken(token);
            } else if (after != null) {
                req.startAfter(after);
            }
            // The page comes from our scanner (ListingInterceptor) through this request's holder; from the SDK's
            // response only when the scanner declined the body.
            ListingInterceptor.Holder holder = new ListingInterceptor.Holder();
            req.overrideConfiguration(o -> o.putExecutionAttribute(ListingInterceptor.PAGE, holder));
            S3ListingParser.Page p;
            try {
                ListObjectsV2Response r = b.client().listObjectsV2(req.build());
                p = holder.page;
                if (p != null) {
                    pagesScanned.incrementAndGet();
                } else {
                    p = S3ListingParser.Page.of(r);
                }
            } catch (SdkException e) {
                throw translate(e, b, prefix, "list");
            }
            listRequests.incrementAndGet();
            keysListed.addAndGet(p.entries().size());
            for (S3ListingParser.Entry o : p.entries()) {
                if (o.key().endsWith("/")) {
                    continue; // a directory marker: not an object here
                }
                StoredObject so = new StoredObject(u.withKey(o.key()), o.size(), o.lastModifiedMillis(), o.eTag());
                if (!visitor.visit(so)) {
                    return;
                }
            }
            token = p.truncated() ? p.nextContinuationToken() : null;
        } while (token != null);
    }

    @Override
    public InputStream open(String uri, String versionTag) throws IOException {
        return open(uri, 0, -1, versionTag);
    }

    @Override
    public InputStream open(String uri, long offset, long length, String versionTag) throws IOException {
        if (offset < 0) {
            throw new IllegalArgumentException("offset < 0: " + offset);
        }
        if (length == 0) {
            return InputStream.nullInputStream();
        }
        S3Uri u = S3Uri.parse(uri);
        if (u.key().isEmpty() || u.key().endsWith("/")) {
            throw new NoSuchFileException(uri);
        }
        Bucket b = bucket(u.bucket());
        long end = length < 0 ? -1 : offset + length; // exclusive
        ResponseInputStream<GetObjectResponse> first = get(b, u, uri, offset, end, versionTag);
        if (first == null) {
            return InputStream.nullInputStream(); // from past the end
        }
        String etag = first.response().eTag();
        Long length2 = first.response().contentLength();
        // Where this body ends: a connection closed before it is a dropped one (some clients report it as EOF).
        long bodyEnd = length2 != null ? offset + length2 : end;
        return new ResumingStream(b, u, uri, offset, bodyEnd, etag != null ? etag : versionTag, first);
    }

    /** A GET of [from, end) (end -1: to the end) pinned to {@code tag}; null when {@code from} is past the end. */
    private ResponseInputStream<GetObjectResponse> get(Bucket b, S3Uri u, String uri, long from, long end,
                                                       String tag) throws IOException {
        GetObjectRequest.Builder req = GetObjectRequest.builder().bucket(u.bucket()).key(u.key());
        if (from > 0 || end >= 0) {
            req.range("bytes=" + from + "-" + (end >= 0 ? Long.toString(end - 1) : ""));
        }
        if (tag != null) {
            req.ifMatch(tag);
        }
        try {
            return b.client().getObject(req.build());
        } catch (S3Exception e) {
            if (e.statusCode() == 412 && tag != null) {
                throw new VersionChangedException(uri, tag, null);
            }
            if (e.statusCode() == 416) {
                return null;
            }
            if (e.statusCode() == 404 && !"NoSuchBucket".equals(code(e))) {
                throw new NoSuchFileException(uri);
            }
            throw translate(e, b, uri, "read");
        } catch (SdkClientException e) {
            throw translate(e, b, uri, "read");
        }
    }

    /**
     * The body of a GET; when the connection drops mid-read, reopens from the next byte with a ranged GET pinned
     * to the same ETag (so a replaced object fails with {@link VersionChangedException}, never a mix of versions).
     */
    private final class ResumingStream extends InputStream {
        private final Bucket b;
        private final S3Uri u;
        private final String uri;
        private final long end;
        private final String etag;
        private long pos;
        private InputStream in;
        private int resumes;

        ResumingStream(Bucket b, S3Uri u, String uri, long from, long end, String etag, InputStream in) {
            this.b = b;
            this.u = u;
            this.uri = uri;
            this.pos = from;
            this.end = end;
            this.etag = etag;
            this.in = in;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] buf, int off, int len) throws IOException {
            while (true) {
                if (in == null) {
                    return -1;
                }
                try {
                    int n = in.read(buf, off, len);
                    if (n > 0) {
                        pos += n;
                    } else if (n < 0 && end >= 0 && pos < end) {
                        throw new IOException("the connection closed at byte " + pos + " of " + end);
                    }
                    return n;
                } catch (InterruptedIOException e) {
                    throw e;
                } catch (IOException e) {
                    if (Thread.currentThread().isInterrupted() || ++resumes >= b.settings().attempts()) {
                        throw new IOException("Reading " + uri + " failed at byte " + pos + " after " + resumes
                                + " attempts: " + e.getMessage(), e);
                    }
                    LOG.info("Reading {} failed at byte {} ({}); resuming from there", uri, pos, e.toString());
                    closeQuietly();
                    backoff(resumes);
                    in = end >= 0 && pos >= end ? null : get(b, u, uri, pos, end, etag);
                }
            }
        }

        private void closeQuietly() {
            try {
                if (in instanceof ResponseInputStream<?> r) {
                    r.abort();
                }
                in.close();
            } catch (IOException | RuntimeException ignored) {
                // the connection is gone already
            }
        }

        @Override
        public void close() throws IOException {
            if (in != null) {
                InputStream i = in;
                in = null;
                if (i instanceof ResponseInputStream<?> r && (end < 0 || pos < end)) {
                    r.abort(); // not drained: do not read the rest of the object to reuse the connection
                }
                i.close();
            }
        }
    }

    private static void backoff(int attempt) throws InterruptedIOException {
        try {
            Thread.sleep(Math.min(2000, 100L << Math.min(attempt, 5)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("Interrupted while retrying");
        }
    }

    @Override
    public boolean createExclusive(String uri, byte[] content) throws IOException {
        S3Uri u = key(uri);
        Bucket b = bucket(u.bucket());
        for (int attempt = 1; ; attempt++) {
            try {
                b.client().putObject(p -> p.bucket(u.bucket()).key(u.key()).ifNoneMatch("*"),
                        RequestBody.fromBytes(content));
                return true;
            } catch (S3Exception e) {
                if (e.statusCode() == 412) {
                    return false;
                }
                if (e.statusCode() == 409 && attempt < CONFLICT_RETRIES) {
                    backoff(attempt); // a concurrent conditional write: S3 asks to retry
                    continue;
                }
                throw translate(e, b, uri, "create");
            } catch (SdkClientException e) {
                throw translate(e, b, uri, "create");
            }
        }
    }

    @Override
    public Optional<String> replaceIfVersion(String uri, byte[] content, String expectedTag) throws IOException {
        S3Uri u = key(uri);
        Bucket b = bucket(u.bucket());
        String tag = expectedTag;
        for (int attempt = 1; ; attempt++) {
            try {
                String ifMatch = tag;
                return Optional.of(b.client().putObject(p -> p.bucket(u.bucket()).key(u.key()).ifMatch(ifMatch),
                        RequestBody.fromBytes(content)).eTag());
            } catch (S3Exception e) {
                if (e.statusCode() == 412 && tag.length() > 2 && tag.startsWith("\"") && tag.endsWith("\"")) {
                    // Ceph RGW (16 at least) compares a PUT's If-Match with the stored ETag unquoted, so refuses
                    // the quoted one AWS and RFC 7232 use even when it is current: asked again with it unquoted.
                    // Still a compare-and-set: where the quoted tag was refused as stale, so is the bare one.
                    tag = tag.substring(1, tag.length() - 1);
                    continue;
                }
                if (e.statusCode() == 412 || (e.statusCode() == 404 && !"NoSuchBucket".equals(code(e)))) {
                    return Optional.empty();
                }
                if (e.statusCode() == 409 && attempt < CONFLICT_RETRIES) {
                    backoff(attempt);
                    continue;
                }
                throw translate(e, b, uri, "replace");
            } catch (SdkClientException e) {
                throw translate(e, b, uri, "replace");
            }
        }
    }

    @Override
    public WholeObjectOutput create(String uri, boolean overwrite) {
        S3Uri u = key(uri);
        return new Output(bucket(u.bucket()), u, uri, overwrite);
    }

    /** Buffers a part; a single PUT at close when it all fits in one, else a multipart upload completed at close. */
    private final class Output extends WholeObjectOutput {
        private final Bucket b;
        private final S3Uri u;
        private final String uri;
        private final boolean overwrite;
        private ByteArrayOutputStream buf = new ByteArrayOutputStream();
        private String uploadId;
        private final List<CompletedPart> parts = new ArrayList<>();
        private boolean done;

        Output(Bucket b, S3Uri u, String uri, boolean overwrite) {
            this.b = b;
            this.u = u;
            this.uri = uri;
            this.overwrite = overwrite;
        }

        @Override
        public void write(int x) throws IOException {
            write(new byte[] {(byte) x}, 0, 1);
        }

        @Override
        public void write(byte[] data, int off, int len) throws IOException {
            if (done) {
                throw new IOException("Output to " + uri + " is closed");
            }
            buf.write(data, off, len);
            if (buf.size() >= PART_SIZE) {
                uploadPart();
            }
        }

        private void uploadPart() throws IOException {
            try {
                if (uploadId == null) {
                    uploadId = b.client().createMultipartUpload(c -> c.bucket(u.bucket()).key(u.key())).uploadId();
                }
                int n = parts.size() + 1;
                String etag = b.client().uploadPart(p -> p.bucket(u.bucket()).key(u.key()).uploadId(uploadId)
                        .partNumber(n), RequestBody.fromBytes(buf.toByteArray())).eTag();
                parts.add(CompletedPart.builder().partNumber(n).eTag(etag).build());
                buf = new ByteArrayOutputStream();
            } catch (SdkException e) {
                abort();
                throw translate(e, b, uri, "write");
            }
        }

        @Override
        public void close() throws IOException {
            if (done) {
                return;
            }
            try {
                if (uploadId == null) {
                    b.client().putObject(p -> {
                        p.bucket(u.bucket()).key(u.key());
                        if (!overwrite) {
                            p.ifNoneMatch("*");
                        }
                    }, RequestBody.fromBytes(buf.toByteArray()));
                } else {
                    if (buf.size() > 0 || parts.isEmpty()) {
                        uploadPart();
                    }
                    b.client().completeMultipartUpload(c -> {
                        c.bucket(u.bucket()).key(u.key()).uploadId(uploadId)
                                .multipartUpload(CompletedMultipartUpload.builder().parts(parts).build());
                        if (!overwrite) {
                            c.ifNoneMatch("*");
                        }
                    });
                }
                done = true;
            } catch (S3Exception e) {
                abort();
                if (e.statusCode() == 412) {
                    throw new FileAlreadyExistsException(uri, null, "an object exists there already");
                }
                throw translate(e, b, uri, "write");
            } catch (SdkClientException e) {
                abort();
                throw translate(e, b, uri, "write");
            } finally {
                buf = new ByteArrayOutputStream();
            }
        }

        @Override
        public void abort() {
            if (done) {
                return;
            }
            done = true;
            buf = new ByteArrayOutputStream();
            if (uploadId != null) {
                try {
                    b.client().abortMultipartUpload(a -> a.bucket(u.bucket()).key(u.key()).uploadId(uploadId));
                } catch (SdkException e) {
                    LOG.warn("Cannot abort the multipart upload of {} (a lifecycle rule on incomplete uploads "
                            + "removes its parts): {}", uri, e.getMessage());
                }
            }
        }
    }

    @Override
    public void copy(String from, String to) throws IOException {
        S3Uri f = key(from);
        S3Uri t = key(to);
        Bucket b = bucket(t.bucket());
        try {
            b.client().copyObject(c -> c.sourceBucket(f.bucket()).sourceKey(f.key())
                    .destinationBucket(t.bucket()).destinationKey(t.key()));
        } catch (S3Exception e) {
            if (e.statusCode() == 404 && "NoSuchKey".equals(code(e))) {
                throw new NoSuchFileException(from);
            }
            throw translate(e, b, from + " to " + to, "copy");
        } catch (SdkClientException e) {
            throw translate(e, b, from + " to " + to, "copy");
        }
    }

    @Override
    public boolean delete(String uri) throws IOException {
        S3Uri u = key(uri);
        Bucket b = bucket(u.bucket());
        // S3 answers 204 whether or not the key existed: a HEAD first tells the caller which it was.
        boolean existed = status(uri).isPresent();
        try {
            b.client().deleteObject(d -> d.bucket(u.bucket()).key(u.key()));
        } catch (SdkException e) {
            throw translate(e, b, uri, "delete");
        }
        return existed;
    }

    private static S3Uri key(String uri) {
        S3Uri u = S3Uri.parse(uri);
        if (u.key().isEmpty() || u.key().endsWith("/")) {
            throw new IllegalArgumentException("Not an object URI (no key, or a key ending in /): " + uri);
        }
        return u;
    }

    private static String code(S3Exception e) {
        return e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorCode();
    }

    /** An SDK failure as an IOException naming the bucket, the endpoint and the credentials' source. */
    private static IOException translate(SdkException e, Bucket b, String what, String action) {
        S3Settings s = b.settings();
        String where = " (endpoint " + s.endpointText() + ", credentials from " + s.credentialsSource() + ")";
        if (e instanceof S3Exception se) {
            String code = code(se);
            int status = se.statusCode();
            if ("NoSuchBucket".equals(code) || (status == 404 && code == null)) {
                return noSuchBucket(b, what, action);
            }
            if (status == 403 || status == 401 || "InvalidAccessKeyId".equals(code)
                    || "SignatureDoesNotMatch".equals(code)) {
                return new AccessDeniedException(what, null, "Cannot " + action + " " + what + ": access to the "
                        + "bucket '" + s.bucket() + "' denied (" + status + (code != null ? " " + code : "")
                        + "): check the credentials" + where);
            }
            return new IOException("Cannot " + action + " " + what + " in the bucket '" + s.bucket() + "': " + status
                    + (code != null ? " " + code : "") + " " + message(se) + where, e);
        }
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        if (root instanceof InterruptedException || root instanceof InterruptedIOException) {
            Thread.currentThread().interrupt();
            InterruptedIOException ie = new InterruptedIOException("Interrupted while trying to " + action + " "
                    + what);
            ie.initCause(e);
            return ie;
        }
        if (String.valueOf(e.getMessage()).contains("Unable to load credentials")) {
            return new AccessDeniedException(what, null, "Cannot " + action + " " + what + ": no credentials for the "
                    + "bucket '" + s.bucket() + "': set fs.s3a.access.key and fs.s3a.secret.key, or give the AWS "
                    + "SDK's default chain some (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, a profile, a role)"
                    + where);
        }
        return new IOException("Cannot " + action + " " + what + ": the S3 endpoint of the bucket '" + s.bucket()
                + "' cannot be reached after " + s.attempts() + " attempts: " + root + where, e);
    }

    private static NoSuchFileException noSuchBucket(Bucket b, String what, String action) {
        S3Settings s = b.settings();
        return new NoSuchFileException(what, null, "Cannot " + action + " " + what + ": the bucket '" + s.bucket()
                + "' does not exist (endpoint " + s.endpointText() + ", credentials from " + s.credentialsSource()
                + ")");
    }

    private static String message(S3Exception e) {
        return e.awsErrorDetails() != null && e.awsErrorDetails().errorMessage() != null
                ? e.awsErrorDetails().errorMessage() : "";
    }

    @Override
    public void close() {
        closed = true;
        for (Bucket b : buckets.values()) {
            b.client().close();
        }
        buckets.clear();
    }

    @Override
    public String toString() {
        return "S3Storage" + buckets.keySet();
    }

    /** For tests: the endpoint a bucket's client uses. */
    URI endpoint(String bucketName) {
        return bucket(bucketName).settings().endpoint().orElse(null);
    }
}
