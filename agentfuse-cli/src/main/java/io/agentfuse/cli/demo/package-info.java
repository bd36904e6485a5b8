/**
 * {@code agentfuse demo}: the gateway and a mock provider in one process on loopback, playing one
 * {@link io.agentfuse.cli.demo.Scenario} per guard through real HTTP (a 5xx storm, a 429 with
 * {@code Retry-After}, token overuse, the context ladder, the permission breaker, an MCP outage) on a
 * sped-up clock, with a {@link io.agentfuse.cli.demo.Timeline} of what happened and a non-zero exit
 * when a guard did not do what it should.
 */
package io.agentfuse.cli.demo;
