using System.Globalization;
using YamlDotNet.RepresentationModel;

namespace PerfService.Tests.Deploy;

/// <summary>
/// The Kubernetes manifests of deploy/k8s, parsed (no cluster): well-formed objects, a highly available and probed
/// service, the migration as its own Job, one pinned agent workload per profile, and secrets that exist as templates.
/// </summary>
public sealed class ManifestTests
{
    private const string ProfileLabel = "perfservice.io/profile";
    private const string BenchmarkTaint = "perfservice.io/benchmark";

    private static readonly IReadOnlyList<K8sObject> Applied = DeployFiles.Kustomize(DeployFiles.K8sDir);
    private static readonly IReadOnlyList<K8sObject> Migrate = DeployFiles.Kustomize(Path.Combine(DeployFiles.K8sDir, "migrate"));
    private static readonly IReadOnlyList<K8sObject> SecretTemplates = DeployFiles.Objects(Path.Combine(DeployFiles.K8sDir, "secrets.example.yaml"));

    [Fact]
    public void EveryDocumentHasApiVersionKindAndName()
    {
        var files = DeployFiles.YamlFilesUnder(DeployFiles.K8sDir).ToList();
        Assert.NotEmpty(files);
        foreach (var file in files)
        {
            var docs = DeployFiles.LoadYaml(file);
            Assert.True(docs.Count > 0, $"{DeployFiles.Relative(file)} has no YAML document");
            foreach (var doc in docs)
            {
                var where = DeployFiles.Relative(file);
                Assert.IsType<YamlMappingNode>(doc);
                Assert.False(string.IsNullOrWhiteSpace(doc.Str("apiVersion")), $"{where}: a document without apiVersion");
                var kind = doc.Str("kind");
                Assert.False(string.IsNullOrWhiteSpace(kind), $"{where}: a document without kind");
                if (kind == "Kustomization")
                {
                    Assert.Equal("kustomization.yaml", Path.GetFileName(file));
                    continue;
                }
                Assert.False(string.IsNullOrWhiteSpace(doc.Str("metadata", "name")), $"{where}: {kind} without metadata.name");
            }
        }
    }

    [Fact]
    public void KustomizationsListExistingFilesAndEverythingButTheExamples()
    {
        foreach (var kustomization in Directory.EnumerateFiles(DeployFiles.K8sDir, "kustomization.yaml", SearchOption.AllDirectories))
        {
            var dir = Path.GetDirectoryName(kustomization)!;
            var resources = DeployFiles.LoadYaml(kustomization).Single().Seq("resources").Select(r => r.Str()!).ToList();
            Assert.NotEmpty(resources);
            foreach (var resource in resources)
            {
                var path = Path.Combine(dir, resource);
                Assert.True(File.Exists(path) || File.Exists(Path.Combine(path, "kustomization.yaml")),
                    $"{DeployFiles.Relative(kustomization)} lists '{resource}', which does not exist");
                Assert.DoesNotContain(".example.", resource, StringComparison.Ordinal);
            }
            // Every other manifest beside it is applied; only *.example.yaml (templates, optional extras) is not.
            var unlisted = Directory.EnumerateFiles(dir, "*.yaml")
                .Select(Path.GetFileName)
                .Where(f => f != "kustomization.yaml" && !f!.Contains(".example.", StringComparison.Ordinal) && !resources.Contains(f!))
                .ToList();
            Assert.True(unlisted.Count == 0, $"{DeployFiles.Relative(kustomization)} leaves out {string.Join(", ", unlisted)}");
        }
    }

    [Fact]
    public void ObjectsAreUniqueAndInOneNamespace()
    {
        var duplicates = Applied.GroupBy(o => (o.Kind, o.Name)).Where(g => g.Count() > 1).Select(g => $"{g.Key.Kind}/{g.Key.Name}").ToList();
        Assert.True(duplicates.Count == 0, "defined twice: " + string.Join(", ", duplicates));
        var ns = Assert.Single(Applied, o => o.Kind == "Namespace");
        foreach (var dir in new[] { DeployFiles.K8sDir, Path.Combine(DeployFiles.K8sDir, "migrate") })
            Assert.Equal(ns.Name, DeployFiles.LoadYaml(Path.Combine(dir, "kustomization.yaml")).Single().Str("namespace"));
        Assert.All(SecretTemplates, s => Assert.Equal(ns.Name, s.Root.Str("metadata", "namespace")));
    }

    [Fact]
    public void TheServiceRunsAtLeastTwoProbedHardenedReplicas()
    {
        var deployment = ServiceDeployment();
        Assert.True(int.Parse(deployment.Root.Str("spec", "replicas") ?? "1", CultureInfo.InvariantCulture) >= 2, "the service needs 2+ replicas");
        Assert.Equal("0", deployment.Root.Str("spec", "strategy", "rollingUpdate", "maxUnavailable"));
        var pod = deployment.PodSpec;
        Assert.NotEmpty(pod.Seq("topologySpreadConstraints"));

        var container = Assert.Single(pod.Seq("containers"));
        Assert.Equal("/readyz", container.Str("readinessProbe", "httpGet", "path"));
        Assert.Equal("/healthz", container.Str("livenessProbe", "httpGet", "path"));
        Assert.NotNull(container.At("startupProbe", "httpGet", "path"));
        // The probes name a port the container declares.
        var ports = container.Seq("ports").Select(p => p.Str("name")).ToList();
        foreach (var probe in new[] { "startupProbe", "livenessProbe", "readinessProbe" })
            Assert.Contains(container.Str(probe, "httpGet", "port"), ports);

        foreach (var key in new[] { "cpu", "memory" }) Assert.NotNull(container.Str("resources", "requests", key));
        Assert.NotNull(container.Str("resources", "limits", "memory"));

        Assert.Equal("true", pod.Str("securityContext", "runAsNonRoot") ?? container.Str("securityContext", "runAsNonRoot"));
        Assert.Equal("true", container.Str("securityContext", "readOnlyRootFilesystem"));
        Assert.Equal("false", container.Str("securityContext", "allowPrivilegeEscalation"));
        // A read-only root needs a writable /tmp.
        var tmp = Assert.Single(container.Seq("volumeMounts"), m => m.Str("mountPath") == "/tmp").Str("name");
        Assert.NotNull(Assert.Single(pod.Seq("volumes"), v => v.Str("name") == tmp).At("emptyDir"));

        // The connection string comes from a Secret, never from the ConfigMap.
        Assert.Equal("perfservice-db", Assert.Single(container.Seq("env"), e => e.Str("name") == "ConnectionStrings__Perf").Str("valueFrom", "secretKeyRef", "name"));
        Assert.DoesNotContain(Applied.Where(o => o.Kind == "ConfigMap"), c => c.Root.At("data", "ConnectionStrings__Perf") is not null);
    }

    [Fact]
    public void TheServiceIsReachableThroughAClusterIpServiceAndIsProtectedByAPdb()
    {
        var deployment = ServiceDeployment();
        var podLabels = deployment.Root.Entries("spec", "template", "metadata", "labels").ToDictionary(e => e.Key, e => e.Value.Str());

        var service = Assert.Single(Applied, o => o.Kind == "Service");
        Assert.Equal("ClusterIP", service.Root.Str("spec", "type") ?? "ClusterIP");
        Assert.All(service.Root.Entries("spec", "selector"), e => Assert.Equal(e.Value.Str(), podLabels.GetValueOrDefault(e.Key)));
        var containerPorts = deployment.Containers.SelectMany(c => c.Seq("ports")).Select(p => p.Str("name")).ToList();
        Assert.All(service.Root.Seq("spec", "ports"), p => Assert.Contains(p.Str("targetPort"), containerPorts));

        var pdb = Assert.Single(Applied, o => o.Kind == "PodDisruptionBudget");
        Assert.All(pdb.Root.Entries("spec", "selector", "matchLabels"), e => Assert.Equal(e.Value.Str(), podLabels.GetValueOrDefault(e.Key)));

        var ingress = Assert.Single(Applied, o => o.Kind == "Ingress");
        var servicePorts = service.Root.Seq("spec", "ports").Select(p => p.Str("name")).ToList();
        var backends = ingress.Root.Seq("spec", "rules").SelectMany(r => r.Seq("http", "paths")).Select(p => p.At("backend", "service")).ToList();
        Assert.NotEmpty(backends);
        Assert.All(backends, b =>
        {
            Assert.Equal(service.Name, b.Str("name"));
            Assert.Contains(b.Str("port", "name"), servicePorts);
        });
        Assert.NotEmpty(ingress.Root.Seq("spec", "tls"));
    }

    [Fact]
    public void TheMigrationIsItsOwnJobWithTheServiceImage()
    {
        // Not in the default kustomization: it must complete before the rollout, not run beside it.
        Assert.DoesNotContain(Applied, o => o.Kind == "Job");
        var job = Assert.Single(Migrate, o => o.Kind == "Job");
        var pod = job.PodSpec;
        Assert.True(pod.Str("restartPolicy") is "Never" or "OnFailure", $"{job.Where}: restartPolicy must be Never or OnFailure");
        var container = Assert.Single(pod.Seq("containers"));
        var commandLine = container.Words("command").Concat(container.Words("args")).ToList();
        Assert.Contains(commandLine, w => w.EndsWith("PerfService.Migrations.dll", StringComparison.Ordinal));
        // The migrations read PERF_DB (or --connection) and get it from the database Secret.
        var perfDb = Assert.Single(container.Seq("env"), e => e.Str("name") == "PERF_DB");
        Assert.Equal("perfservice-db", perfDb.Str("valueFrom", "secretKeyRef", "name"));
        Assert.Equal("true", pod.Str("securityContext", "runAsNonRoot") ?? container.Str("securityContext", "runAsNonRoot"));

        // Same image repository as the service, and the same tag in both kustomizations.
        var serviceImage = Assert.Single(ServiceDeployment().PodSpec.Seq("containers")).Str("image")!;
        Assert.Equal(Repository(serviceImage), Repository(container.Str("image")!));
        Assert.Equal(ImageTag(DeployFiles.K8sDir, Repository(serviceImage)), ImageTag(Path.Combine(DeployFiles.K8sDir, "migrate"), Repository(serviceImage)));
    }

    public static TheoryData<string> Profiles() => DeployFiles.ProfileNames();

    [Theory]
    [MemberData(nameof(Profiles))]
    public void EachProfileHasOneAgentWorkloadPinnedToItsNodes(string profile)
    {
        var agent = Assert.Single(AgentWorkloads(), a => a.PodSpec.Str("nodeSelector", ProfileLabel) == profile);
        var pod = agent.PodSpec;

        // Only on the tainted benchmark nodes, with the profile's architecture.
        Assert.Contains(pod.Seq("tolerations"), t => t.Str("key") == BenchmarkTaint && t.Str("effect") == "NoSchedule");
        var arch = DeployFiles.Profiles().Single(p => p.Name == profile).Arch;
        Assert.Equal(arch == "x64" ? "amd64" : arch, pod.Str("nodeSelector", "kubernetes.io/arch"));

        var container = Assert.Single(pod.Seq("containers"));
        var args = container.Words("command").Concat(container.Words("args")).ToList();
        Assert.Contains("agent", args);
        var at = args.IndexOf("--profile");
        Assert.True(at >= 0 && at + 1 < args.Count && args[at + 1] == profile, $"{agent.Where}: runs --profile {profile}");
        Assert.Equal("perf-agent-token", Assert.Single(container.Seq("env"), e => e.Str("name") == "PERF_TOKEN").Str("valueFrom", "secretKeyRef", "name"));

        // Guaranteed QoS with whole CPUs, so that the static CPU manager gives the agent exclusive cores.
        foreach (var c in agent.Containers)
        {
            foreach (var resource in new[] { "cpu", "memory" })
            {
                var request = c.Str("resources", "requests", resource);
                Assert.False(string.IsNullOrEmpty(request), $"{agent.Where}: no {resource} request");
                Assert.Equal(request, c.Str("resources", "limits", resource));
            }
            Assert.True(int.TryParse(c.Str("resources", "limits", "cpu"), NumberStyles.None, CultureInfo.InvariantCulture, out var cpus) && cpus >= 1,
                $"{agent.Where}: the CPU limit must be a whole number of CPUs");
        }

        // The work folder is on the node (hostPath) or a volume claim, and mounted where --workdir points.
        var w = args.IndexOf("--workdir");
        Assert.True(w >= 0 && w + 1 < args.Count, $"{agent.Where}: no --workdir");
        var workdir = args[w + 1];
        var mount = Assert.Single(container.Seq("volumeMounts"), m => workdir == m.Str("mountPath") || workdir.StartsWith(m.Str("mountPath") + "/", StringComparison.Ordinal));
        var claims = agent.Root.Seq("spec", "volumeClaimTemplates").Select(v => v.Str("metadata", "name"));
        var volume = pod.Seq("volumes").SingleOrDefault(v => v.Str("name") == mount.Str("name"));
        Assert.True(volume?.At("hostPath") is not null || volume?.At("persistentVolumeClaim") is not null || claims.Contains(mount.Str("name")),
            $"{agent.Where}: the work folder must be a hostPath or a volume claim");
    }

    [Fact]
    public void EveryAgentWorkloadServesAKnownProfile()
    {
        var known = DeployFiles.Profiles().Select(p => p.Name).ToHashSet();
        var agents = AgentWorkloads().ToList();
        Assert.Equal(known.Count, agents.Count);
        Assert.All(agents, a => Assert.Contains(a.PodSpec.Str("nodeSelector", ProfileLabel) ?? "", known));
        // Nothing but the agents tolerates the benchmark nodes' taint.
        var tolerating = Applied.Where(o => o.PodSpec.Seq("tolerations").Any(t => t.Str("key") == BenchmarkTaint));
        Assert.Equal(agents.Select(a => a.Name).Order(), tolerating.Select(a => a.Name).Order());
    }

    [Fact]
    public void AgentCommandLinesUseOnlyOptionsTheAgentHas()
    {
        var options = DeployFiles.AgentOptions();
        Assert.Contains("--server", options);
        Assert.Contains("--token", options);
        foreach (var agent in AgentWorkloads())
        {
            foreach (var container in agent.Containers)
            {
                var words = container.Words("command").Concat(container.Words("args"));
                Assert.All(words.Where(w => w.StartsWith("--", StringComparison.Ordinal)), w => Assert.Contains(w, options));
            }
        }
    }

    [Fact]
    public void ReferencedSecretsAndConfigMapsExist()
    {
        var secrets = SecretTemplates.Where(s => s.Kind == "Secret")
            .ToDictionary(s => s.Name!, s => s.Root.Entries("stringData").Concat(s.Root.Entries("data")).Select(e => e.Key).ToHashSet());
        var configMaps = Applied.Where(o => o.Kind == "ConfigMap").Select(o => o.Name).ToHashSet();
        var referenced = 0;
        foreach (var workload in Applied.Concat(Migrate).Where(o => o.PodSpec is not null))
        {
            foreach (var container in workload.Containers)
            {
                foreach (var env in container.Seq("env"))
                {
                    if (env.At("valueFrom", "secretKeyRef") is { } secretRef)
                    {
                        AssertSecretKey(workload, secretRef.Str("name"), secretRef.Str("key"));
                        referenced++;
                    }
                    if (env.At("valueFrom", "configMapKeyRef") is { } mapRef) Assert.Contains(mapRef.Str("name"), configMaps);
                }
                foreach (var from in container.Seq("envFrom"))
                {
                    if (from.Str("secretRef", "name") is { } secret) AssertSecretKey(workload, secret, null);
                    if (from.Str("configMapRef", "name") is { } map) Assert.Contains(map, configMaps);
                }
            }
            foreach (var volume in workload.PodSpec.Seq("volumes"))
            {
                if (volume.At("secret") is not { } secretVolume) continue;
                var items = secretVolume.Seq("items").Select(i => i.Str("key")).ToList();
                if (items.Count == 0) AssertSecretKey(workload, secretVolume.Str("secretName"), null);
                foreach (var key in items) AssertSecretKey(workload, secretVolume.Str("secretName"), key);
            }
        }
        Assert.True(referenced > 0, "no secretKeyRef at all: the database connection string must come from a Secret");

        void AssertSecretKey(K8sObject workload, string? name, string? key)
        {
            Assert.True(name is not null && secrets.ContainsKey(name), $"{workload.Where}: Secret '{name}' has no template in secrets.example.yaml");
            Assert.True(key is null || secrets[name!].Contains(key), $"{workload.Where}: Secret '{name}' has no key '{key}' in its template");
        }
    }

    [Fact]
    public void SecretTemplatesHoldOnlyPlaceholders()
    {
        var secrets = SecretTemplates.Where(s => s.Kind == "Secret").ToList();
        Assert.NotEmpty(secrets);
        Assert.All(secrets, s =>
        {
            Assert.Null(s.Root.At("data")); // base64 would hide what is in it
            Assert.All(s.Root.Entries("stringData"), e =>
                Assert.True(e.Value.Str()?.Contains("REPLACE_ME", StringComparison.Ordinal), $"{s.Where}: {e.Key} is not a REPLACE_ME placeholder"));
        });
        // And no Secret is applied by default.
        Assert.DoesNotContain(Applied.Concat(Migrate), o => o.Kind == "Secret");
    }

    [Fact]
    public void WebAndBackgroundRolesRunAsSeparateDeploymentsAndTheBackgroundScalesOnAnalysisLag()
    {
        string? Role(K8sObject deployment) =>
            Assert.Single(deployment.PodSpec.Seq("containers")).Seq("env").SingleOrDefault(e => e.Str("name") == "Background__Roles").Str("value");
        var web = ServiceDeployment();
        var background = Assert.Single(Applied, o => o.Kind == "Deployment" && o.Name == "perfservice-background");
        Assert.Equal(("web", "background"), (Role(web), Role(background)));
        // Same image, settings and database; the Service routes users to the web pods only.
        Assert.Equal(Assert.Single(web.PodSpec.Seq("containers")).Str("image"), Assert.Single(background.PodSpec.Seq("containers")).Str("image"));
        var backgroundLabels = background.Root.Entries("spec", "template", "metadata", "labels").ToDictionary(e => e.Key, e => e.Value.Str());
        var service = Assert.Single(Applied, o => o.Kind == "Service");
        Assert.False(service.Root.Entries("spec", "selector").All(e => backgroundLabels.GetValueOrDefault(e.Key) == e.Value.Str()),
            "the Service must not select the background pods");
        Assert.Equal("/readyz", Assert.Single(background.PodSpec.Seq("containers")).Str("readinessProbe", "httpGet", "path"));

        var hpa = Assert.Single(Applied, o => o.Kind == "HorizontalPodAutoscaler");
        Assert.Equal("autoscaling/v2", hpa.ApiVersion);
        Assert.Equal(("Deployment", "perfservice-background"), (hpa.Root.Str("spec", "scaleTargetRef", "kind"), hpa.Root.Str("spec", "scaleTargetRef", "name")));
        var metric = Assert.Single(hpa.Root.Seq("spec", "metrics"));
        Assert.Equal("perfservice_analysis_lag_seconds", metric.Str("external", "metric", "name"));
        // The adapter rule documented beside it maps the service's gauge to that name.
        var text = File.ReadAllText(Path.Combine(DeployFiles.K8sDir, "background-hpa.yaml"));
        Assert.Contains("seriesQuery: 'perfservice_analysis_backlog_oldest_seconds", text);
        Assert.Contains("as: perfservice_analysis_lag_seconds", text);
    }

    private static K8sObject ServiceDeployment() => Assert.Single(Applied, o => o.Kind == "Deployment" && o.Name == "perfservice");

    private static IEnumerable<K8sObject> AgentWorkloads() =>
        Applied.Where(o => o.PodSpec is not null && o.PodSpec.Str("nodeSelector", ProfileLabel) is not null);

    private static string Repository(string image) => image.LastIndexOf(':') is var colon && colon > image.LastIndexOf('/') ? image[..colon] : image;

    private static string? ImageTag(string kustomizationDir, string repository) =>
        DeployFiles.LoadYaml(Path.Combine(kustomizationDir, "kustomization.yaml")).Single()
            .Seq("images").SingleOrDefault(i => i.Str("name") == repository).Str("newTag");
}
