package io.agentfuse.gateway.dashboard;

import io.agentfuse.gateway.testing.ExternalCommands;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Chromium and its ChromeDriver for the dashboard's browser tests, found or fetched, never skipped:
 * <ol>
 *   <li>the system's ({@code /usr/bin/chromium} and {@code /usr/bin/chromedriver}) when both are installed;</li>
 *   <li>else Debian's packages, fetched with {@code apt-get download} (Chromium, ChromeDriver and the
 *       libraries the machine lacks, as {@code apt-get -s install} lists them) and unpacked with
 *       {@code dpkg-deb -x} into {@code target/chromium/}, run with {@code LD_LIBRARY_PATH} pointing
 *       into it; as root, {@code apt-get update} first when the package lists are missing.</li>
 * </ol>
 * Anything else fails with what went wrong and how to install Chromium by hand. Nothing is fetched
 * by Selenium itself.
 */
final class HeadlessChromium {

    private static final Path SYSTEM_BROWSER = Path.of("/usr/bin/chromium");
    private static final Path SYSTEM_DRIVER = Path.of("/usr/bin/chromedriver");
    private static final List<String> PACKAGES = List.of("chromium", "chromium-driver");
    private static final String BY_HAND = "; install Chromium by hand (as root: apt-get update && apt-get install -y "
            + "chromium chromium-driver) and run the tests again";

    /** The browser, its driver, and the environment the driver (and so the browser) needs. */
    record Binaries(Path browser, Path driver, Map<String, String> environment) {
    }

    private static Binaries found;

    private HeadlessChromium() {
    }

    /** The binaries, fetched on first use; fails the test when they cannot be had. */
    static synchronized Binaries binaries() {
        if (found == null) {
            found = locate();
        }
        return found;
    }

    private static Binaries locate() {
        if (Files.isExecutable(SYSTEM_BROWSER) && Files.isExecutable(SYSTEM_DRIVER)) {
            return new Binaries(SYSTEM_BROWSER, SYSTEM_DRIVER, Map.of());
        }
        Path home = Path.of("target", "chromium").toAbsolutePath();
        Path unpacked = home.resolve("root");
        Path complete = home.resolve("unpacked.ok");
        if (!Files.exists(complete)) {
            unpack(home, unpacked);
            write(complete);
        }
        Path browser = existing(unpacked.resolve("usr/lib/chromium/chromium"), Path.of("/usr/lib/chromium/chromium"));
        // Debian's chromium-driver had the driver in usr/lib/chromium (a link in usr/bin); since 150 it is usr/bin's own.
        Path driver = existing(unpacked.resolve("usr/lib/chromium/chromedriver"), unpacked.resolve("usr/bin/chromedriver"),
                Path.of("/usr/lib/chromium/chromedriver"));
        Map<String, String> environment = Map.of("LD_LIBRARY_PATH", libraryPath(unpacked));
        for (Path binary : List.of(browser, driver)) {
            String missing = ExternalCommands.run(List.of("ldd", binary.toString()), environment, home, BY_HAND).lines()
                    .filter(line -> line.contains("not found")).map(String::trim).reduce((a, b) -> a + ", " + b).orElse("");
            if (!missing.isEmpty()) {
                throw new IllegalStateException(binary + " lacks libraries: " + missing
                        + " (delete " + home + " to fetch again)" + BY_HAND);
            }
        }
        return new Binaries(browser, driver, environment);
    }

    /** The unpacked library folders ({@code usr/lib/<arch>-linux-gnu} and the ones below it that hold libraries). */
    private static String libraryPath(Path unpacked) {
        List<String> folders = new ArrayList<>();
        try (Stream<Path> libs = Files.list(unpacked.resolve("usr/lib"))) {
            for (Path arch : libs.filter(dir -> dir.getFileName().toString().endsWith("-linux-gnu")).toList()) {
                folders.add(arch.toString());
                folders.add(arch.resolve("pulseaudio").toString());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + unpacked.resolve("usr/lib"), e);
        }
        folders.add(unpacked.resolve("usr/lib/chromium").toString());
        return String.join(":", folders);
    }

    /** Downloads Chromium, ChromeDriver and the libraries this machine lacks, and unpacks them, from scratch. */
    private static void unpack(Path home, Path unpacked) {
        Path debs = home.resolve("debs");
        try {
            ExternalCommands.deleteTree(home);
            Files.createDirectories(debs);
            Files.createDirectories(unpacked);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + debs, e);
        }
        List<String> packages = missingPackages(home);
        if (packages.isEmpty() && ExternalCommands.isRoot()) {
            ExternalCommands.run(List.of("apt-get", "update", "-q"), Map.of(), home, BY_HAND);
            packages = missingPackages(home);
        }
        if (packages.isEmpty()) {
            throw new IllegalStateException("apt-get knows no package chromium or chromium-driver to fetch"
                    + (ExternalCommands.isRoot() ? "" : " (not root: cannot run apt-get update)") + BY_HAND);
        }
        List<String> download = new ArrayList<>(List.of("apt-get", "download"));
        download.addAll(packages);
        ExternalCommands.run(download, Map.of(), debs, BY_HAND);
        try (Stream<Path> files = Files.list(debs)) {
            for (Path deb : files.filter(file -> file.toString().endsWith(".deb")).sorted().toList()) {
                ExternalCommands.run(List.of("dpkg-deb", "-x", deb.toString(), unpacked.toString()), Map.of(), home, BY_HAND);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + debs, e);
        }
    }

    /** What {@code apt-get install chromium chromium-driver} would install here, without its recommendations. */
    private static List<String> missingPackages(Path home) {
        List<String> simulate = new ArrayList<>(List.of("apt-get", "-s", "install", "--no-install-recommends"));
        simulate.addAll(PACKAGES);
        String plan;
        try {
            plan = ExternalCommands.run(simulate, Map.of(), home, BY_HAND);
        } catch (IllegalStateException unknown) {
            return List.of();
        }
        return plan.lines().filter(line -> line.startsWith("Inst ")).map(line -> line.split(" ")[1]).toList();
    }

    /** The first of {@code candidates} that is an executable file. */
    private static Path existing(Path... candidates) {
        for (Path candidate : candidates) {
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("none of " + List.of(candidates) + " exists" + BY_HAND);
    }

    /** A fresh, empty browser profile folder under {@code target/chromium/}. */
    static Path newProfile() {
        try {
            Path profiles = Files.createDirectories(Path.of("target", "chromium", "profiles").toAbsolutePath());
            return Files.createTempDirectory(profiles, "profile");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a browser profile folder", e);
        }
    }

    private static void write(Path marker) {
        try {
            Files.writeString(marker, "unpacked\n");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + marker, e);
        }
    }
}
