/**
 * Internal: the SQL expression language behind {@code Column}, {@code Functions} and the {@code StreamFrame}
 * transformations (parser, analyzer, evaluators). Not part of Sluice's API: no module but sluice-core may use it
 * (sluice-docs-tests' {@code ModuleBoundariesTest} fails the build otherwise), and it changes without notice. Use
 * {@link io.sluice.core.Column}, {@link io.sluice.core.Functions} and {@link io.sluice.core.StreamFrame}.
 */
package io.sluice.core.expr;
