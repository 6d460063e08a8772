package io.sluice.s3.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Map;
import java.util.UUID;

/**
 * Writes a whole bucket straight into the folder of a {@link LocalS3Server} that is not running, in S3Mock 4.11's
 * on-disk layout, for a server started on that folder afterwards: a folder per bucket with
 * {@code bucketMetadata.json} (the bucket and its key-to-id map), and a folder per object id with
 * {@code binaryData} and {@code objectMetadata.json}.
 *
 * <p>Why: PUTs are no way to make tens of thousands of objects on S3Mock, each PUT rewrites the bucket's whole key
 * map (3,000 PUTs took 109 s with 32 threads), so the cost grows with the square of the objects. For tests and
 * benchmarks that need a large bucket; the objects are then served as if they had been PUT (ETag: the content's
 * MD5, as a single PUT gives).
 */
public final class BucketSeed {
    private BucketSeed() {
    }

    /**
     * Writes the bucket {@code bucket} under {@code dataDir} holding {@code objects} (key to content), all with the
     * modification time of now. {@code bucketMetadata.json} is written last: a folder without it is what an
     * interrupted seed left, and {@link #isComplete} says so.
     *
     * @throws IllegalStateException when the bucket's folder exists already (its map would be overwritten)
     */
    public static void write(Path dataDir, String bucket, Map<String, byte[]> objects) throws IOException {
        Path b = dataDir.resolve(bucket);
        if (Files.exists(b)) {
            throw new IllegalStateException("The bucket folder " + b + " exists already: delete it to seed it again");
        }
        Files.createDirectories(b);
        String now = Instant.now().toString();
        long nowMs = Instant.parse(now).toEpochMilli();
        MessageDigest md5 = md5();
        StringBuilder map = new StringBuilder();
        for (Map.Entry<String, byte[]> e : objects.entrySet()) {
            String key = e.getKey();
            byte[] content = e.getValue();
            String id = UUID.nameUUIDFromBytes(key.getBytes(StandardCharsets.UTF_8)).toString();
            Path o = Files.createDirectories(b.resolve(id));
            Files.write(o.resolve("binaryData"), content);
            String etag = HexFormat.of().formatHex(md5.digest(content));
            Files.writeString(o.resolve("objectMetadata.json"), "{\"id\":\"" + id + "\",\"key\":\"" + json(key)
                    + "\",\"size\":\"" + content.length + "\",\"modificationDate\":\"" + now
                    + "\",\"etag\":\"\\\"" + etag + "\\\"\",\"contentType\":\"application/octet-stream\","
                    + "\"lastModified\":" + nowMs + ",\"dataPath\":\"" + o.resolve("binaryData").toUri()
                    + "\",\"userMetadata\":{},\"tags\":[],\"legalHold\":null,\"retention\":null,\"owner\":"
                    + "{\"DisplayName\":\"s3-mock-file-store\",\"ID\":"
                    + "\"79a59df900b949e55d96a1e698fbacedfd6e09d98eacf8f8d5218e7cd47ef2be\"},\"storeHeaders\":{},"
                    + "\"encryptionHeaders\":{},\"checksumAlgorithm\":null,\"checksum\":null,\"storageClass\":null,"
                    + "\"policy\":null,\"versionId\":null,\"deleteMarker\":false,\"checksumType\":\"FULL_OBJECT\"}");
            map.append(map.isEmpty() ? "" : ",").append('"').append(json(key)).append("\":\"").append(id).append('"');
        }
        Files.writeString(b.resolve("bucketMetadata.json"), "{\"name\":\"" + bucket + "\",\"creationDate\":\""
                + now + "\",\"versioningConfiguration\":{\"MfaDelete\":null,\"Status\":null,\"xmlns\":"
                + "\"http://s3.amazonaws.com/doc/2006-03-01/\"},\"objectLockConfiguration\":null,"
                + "\"bucketLifecycleConfiguration\":null,\"objectOwnership\":\"BucketOwnerEnforced\",\"path\":\""
                + b.toUri() + "\",\"bucketRegion\":\"us-east-1\",\"bucketInfo\":null,\"locationInfo\":null,"
                + "\"objects\":{" + map + "}}");
    }

    /** True when {@code bucket}'s folder under {@code dataDir} holds a whole bucket (its map is written). */
    public static boolean isComplete(Path dataDir, String bucket) {
        return Files.isRegularFile(dataDir.resolve(bucket).resolve("bucketMetadata.json"));
    }

    private static String json(String s) {
        if (s.chars().anyMatch(c -> c == '"' || c == '\\' || c < 0x20)) {
            throw new IllegalArgumentException("A key with a quote, a backslash or a control character: " + s);
        }
        return s;
    }

    private static MessageDigest md5() {
        try {
            return MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
