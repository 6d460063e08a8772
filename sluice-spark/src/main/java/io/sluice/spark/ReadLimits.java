package io.sluice.spark;

import io.sluice.api.ReadLimit;
import org.apache.spark.sql.connector.read.streaming.CompositeReadLimit;
import org.apache.spark.sql.connector.read.streaming.ReadAllAvailable;
import org.apache.spark.sql.connector.read.streaming.ReadMaxBytes;
import org.apache.spark.sql.connector.read.streaming.ReadMaxFiles;
import org.apache.spark.sql.connector.read.streaming.ReadMaxRows;
import org.apache.spark.sql.connector.read.streaming.ReadMinRows;

/** Sluice read limits to Spark's and back: the two families are one to one. */
final class ReadLimits {
    private ReadLimits() {
    }

    static org.apache.spark.sql.connector.read.streaming.ReadLimit toSpark(ReadLimit limit) {
        if (limit instanceof ReadLimit.MaxRows m) {
            return org.apache.spark.sql.connector.read.streaming.ReadLimit.maxRows(m.rows());
        } else if (limit instanceof ReadLimit.MaxFiles m) {
            return org.apache.spark.sql.connector.read.streaming.ReadLimit.maxFiles(m.files());
        } else if (limit instanceof ReadLimit.MaxBytes m) {
            return org.apache.spark.sql.connector.read.streaming.ReadLimit.maxBytes(m.bytes());
        } else if (limit instanceof ReadLimit.MinRows m) {
            return org.apache.spark.sql.connector.read.streaming.ReadLimit.minRows(m.rows(), m.maxTriggerDelayMs());
        } else if (limit instanceof ReadLimit.Composite c) {
            return org.apache.spark.sql.connector.read.streaming.ReadLimit.compositeLimit(
                    c.limits().stream().map(ReadLimits::toSpark)
                            .toArray(org.apache.spark.sql.connector.read.streaming.ReadLimit[]::new));
        }
        return org.apache.spark.sql.connector.read.streaming.ReadLimit.allAvailable();
    }

    /** Spark's limit as a Sluice one; a kind Sluice does not know reads as everything available. */
    static ReadLimit toSluice(org.apache.spark.sql.connector.read.streaming.ReadLimit limit) {
        if (limit instanceof ReadMaxRows m) {
            return ReadLimit.maxRows(m.maxRows());
        } else if (limit instanceof ReadMaxFiles m) {
            return ReadLimit.maxFiles(m.maxFiles());
        } else if (limit instanceof ReadMaxBytes m) {
            return ReadLimit.maxBytes(m.maxBytes());
        } else if (limit instanceof ReadMinRows m) {
            return ReadLimit.minRows(m.minRows(), m.maxTriggerDelayMs());
        } else if (limit instanceof CompositeReadLimit c) {
            org.apache.spark.sql.connector.read.streaming.ReadLimit[] parts = c.getReadLimits();
            ReadLimit[] out = new ReadLimit[parts.length];
            for (int i = 0; i < parts.length; i++) {
                out[i] = toSluice(parts[i]);
            }
            return ReadLimit.composite(out);
        } else if (limit == null || limit instanceof ReadAllAvailable) {
            return ReadLimit.allAvailable();
        }
        return ReadLimit.allAvailable();
    }
}
