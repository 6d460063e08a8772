/**
 * Table names: how {@code readStream().table(name)}, {@code read().table(name)} and {@code toTable(name)} find a
 * table through a catalog configured as Spark's ({@code spark.sql.catalog.<name>=<implementation>} and
 * {@code spark.sql.catalog.<name>.<property>} entries). A connector module contributes a
 * {@link io.sluice.api.table.TableCatalogProvider}, found with {@link java.util.ServiceLoader}; the engine knows no
 * table format.
 */
package io.sluice.api.table;
