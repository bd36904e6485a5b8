package io.agentfuse.config.internal;

import io.agentfuse.config.BudgetConfig;
import io.agentfuse.config.ClientConfig;
import io.agentfuse.config.ConfigDefaults;
import io.agentfuse.config.ModelConfig;
import io.agentfuse.config.internal.Node.MapNode;
import io.agentfuse.config.internal.Node.ScalarNode;
import io.agentfuse.core.budget.BudgetWindow;
import io.agentfuse.core.internal.Checks;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads the {@code clients:} and {@code budgets:} sections (docs/design.md §11). Names of clients
 * and budgets go into headers and admin paths, so they are plain ({@code [A-Za-z0-9._-]}); two
 * clients never share a key (errors name the other client, never the key); a budget limits tokens
 * or cost, its window is at least a second, its fallback names a model, and a budget that counts
 * cost needs the price of every configured model.
 */
final class BudgetBinder {

    /** What a client's or budget's name, and a tenant, may be made of. */
    static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,128}");
    private static final BigDecimal MAX_COST = new BigDecimal("1000000");
    private static final Duration MAX_WINDOW = Duration.ofDays(366);

    private BudgetBinder() {
    }

    static Map<String, ClientConfig> clients(MapReader root) {
        var clients = new LinkedHashMap<String, ClientConfig>();
        var owners = new LinkedHashMap<String, String>();
        root.namedSections("clients").forEach((name, section) -> {
            boolean named = checkName(root, "clients", name, section);
            Optional<String> key = HeaderSecrets.required(section, "key");
            String tenant = section.string("tenant", name).strip();
            if ((named || section.find("tenant").isPresent()) && !NAME.matcher(tenant).matches()) {
                section.error("tenant", Checks.mustBe("1 to 128 letters, digits, '.', '_' or '-'", "\"" + tenant + "\""));
            }
            section.finish();
            key.ifPresent(secret -> {
                String owner = owners.putIfAbsent(secret, name);
                if (owner != null) {
                    section.error("key", "is the same key as clients." + owner
                            + "'s; each client needs its own key, or the gateway cannot tell them apart");
                } else if (named) {
                    clients.put(name, new ClientConfig(name, secret, tenant));
                }
            });
        });
        return clients;
    }

    /**
     * @param modelNames every name under {@code models}, which a fallback may name
     * @param configured the models read without error, whose prices a cost budget needs
     */
    static Map<String, BudgetConfig> budgets(MapReader root, Set<String> modelNames, Map<String, ModelConfig> configured) {
        var budgets = new LinkedHashMap<String, BudgetConfig>();
        root.namedSections("budgets").forEach((name, section) -> {
            boolean named = checkName(root, "budgets", name, section);
            Optional<BudgetConfig.Scope> scope = section.requiredChoice("scope", BudgetConfig.Scope.class);
            OptionalLong tokens = section.find("tokens").isPresent()
                    ? OptionalLong.of(section.longInteger("tokens", 1, 1, Long.MAX_VALUE)) : OptionalLong.empty();
            Optional<BigDecimal> cost = ExactDecimals.read(section, "cost", new BigDecimal("0.000000001"), MAX_COST);
            if (section.find("tokens").isEmpty() && section.find("cost").isEmpty()) {
                section.problems().add(section.path(), section.location(),
                        "a budget limits tokens, cost or both: set tokens (per window) or cost (USD per window)");
            }
            Duration window = window(section);
            Optional<String> fallback = onExhausted(section, modelNames);
            if (cost.isPresent()) {
                unpriced(configured).ifPresent(models -> section.error("cost", "counts USD, but the built-in price table"
                        + " has no price for " + models + "; give each a price: { input: <USD per 1M>, output: <USD per 1M> }"));
            }
            section.finish();
            if (named && scope.isPresent()) {
                budgets.put(name, new BudgetConfig(name, scope.get(), tokens, cost, window, fallback));
            }
        });
        return budgets;
    }

    /** The fallback model of every budget that has one, for the family models they name. */
    static List<String> fallbacksOf(Map<String, BudgetConfig> budgets) {
        return budgets.values().stream().flatMap(budget -> budget.fallback().stream()).toList();
    }

    private static boolean checkName(MapReader root, String section, String name, MapReader entry) {
        if (NAME.matcher(name).matches()) {
            return true;
        }
        root.problems().add(Paths.child(section, name), entry.location(), Checks.mustBe(
                "a name of 1 to 128 letters, digits, '.', '_' or '-' (it goes into headers and paths)", "\"" + name + "\""));
        return false;
    }

    private static Duration window(MapReader section) {
        Duration window = section.duration("window", ConfigDefaults.BUDGET_WINDOW);
        String problem = null;
        if (window.compareTo(BudgetWindow.SHORTEST) < 0 || window.compareTo(MAX_WINDOW) > 0) {
            problem = "between 1s and 366d";
        } else if (window.toNanos() % 1_000_000 != 0) {
            problem = "whole milliseconds";
        }
        if (problem != null) {
            section.error("window", Checks.mustBe(problem, section.find("window").map(Node::describe).orElse("")));
            return ConfigDefaults.BUDGET_WINDOW;
        }
        return window;
    }

    /** {@code reject} (empty) or the model of {@code {fallback: <model>}}. */
    private static Optional<String> onExhausted(MapReader section, Set<String> models) {
        Optional<Node> node = section.find("onExhausted");
        if (node.isEmpty() || node.get() instanceof ScalarNode scalar && scalar.text().strip().equals("reject")) {
            return Optional.empty();
        }
        if (!(node.get() instanceof MapNode)) {
            section.error("onExhausted", Checks.mustBe("reject or {fallback: <model>}", node.get().describe()));
            return Optional.empty();
        }
        MapReader choice = section.section("onExhausted");
        Optional<String> model = choice.requiredString("fallback");
        choice.finish();
        // the rule of every model named without an entry: no family is an error, a near miss of a known one a typo
        return model.filter(name -> FamilyNames.accept(choice.find("fallback").orElseThrow(), name, models,
                choice.problems()));
    }

    /** The configured models without a price, as {@code a, b}, if any. */
    private static Optional<String> unpriced(Map<String, ModelConfig> models) {
        List<String> names = models.values().stream().filter(model -> model.price().isEmpty())
                .map(model -> "models." + model.name()).toList();
        return names.isEmpty() ? Optional.empty() : Optional.of(String.join(", ", names));
    }
}
