package io.agentfuse.cli.demo;

/**
 * One of the seeds' stories, played against the running gateway. A scenario checks what it
 * expects to see and says so in its result; the demo fails if any check does.
 */
interface Scenario {

    /** The name for {@code demo --scenario NAME}. */
    String name();

    /** One line saying what the scenario shows. */
    String title();

    /** Plays the scenario on {@code stage}, narrating on {@code timeline}. */
    ScenarioResult play(DemoStage stage, Timeline timeline, double speed) throws Exception;
}
