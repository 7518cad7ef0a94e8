using System.Text.Json;
using Microsoft.EntityFrameworkCore.Infrastructure;
using Microsoft.EntityFrameworkCore.Migrations;
using Npgsql;
using PerfService.Core.ChangePoints;
using PerfService.Migrations;
using PerfService.TestSupport;

namespace PerfService.IntegrationTests.Analysis;

/// <summary>
/// Detector states moved from jsonb to the codec's bytes. The migration converts every stored state in SQL, bit for
/// bit, so no series replays or loses its history; its rollback gives the old code the JSON it wrote.
/// </summary>
public class DetectorStateMigrationTests
{
    private const string Before = "20261126171310_ProfileMismatchRunsIndex";

    private static OnlineDetectorState Fed(int seed, int points, int stepAt, double factor)
    {
        var random = new Random(seed);
        var state = OnlineDetectorState.Empty;
        for (var i = 0; i < points; i++)
        {
            var noise = Math.Sqrt(-2 * Math.Log(1 - random.NextDouble())) * Math.Cos(2 * Math.PI * random.NextDouble());
            state = OnlineDetector.Add(state, 100 * (i >= stepAt ? factor : 1) * Math.Exp(0.02 * noise), ChangePointOptions.Legacy).State;
        }
        // The JSON states were all the first detector's.
        return state with { DetectorVersion = 1 };
    }

    [Fact]
    public async Task The_migration_converts_stored_json_states_exactly_and_its_rollback_restores_them()
    {
        await using var database = await TestDatabase.CreateAsync(migrate: false);
        await MigrateAsync(database, Before);
        OnlineDetectorState[] states = [Fed(1, 260, 235, 1.4), Fed(2, 7, 100, 1), Fed(3, 90, 60, 0.8)];
        Assert.Contains(states[0].Tracks, t => t.Alert is not null);
        // As the code before it stored them: System.Text.Json's defaults, and '{}' for a series not yet fed.
        string[] json = ["{}", .. states.Select(AsTheOldCodeWroteIt)];
        await using (var conn = new NpgsqlConnection(database.ConnectionString))
        {
            await conn.OpenAsync();
            // The rows' benchmarks and branches do not matter here: skip the foreign-key triggers for this session.
            await using (var replica = new NpgsqlCommand("SET session_replication_role = replica", conn)) await replica.ExecuteNonQueryAsync();
            await using var cmd = new NpgsqlCommand("""
                INSERT INTO series_states (benchmark_id, measure_id, profile_id, branch_id, state, last_series_at, last_result_id, updated_at)
                SELECT i, 1, 1, 1, s::jsonb, now(), i, now() FROM unnest($1) WITH ORDINALITY AS u(s, i);
                """, conn);
            cmd.Parameters.Add(new NpgsqlParameter { Value = json });
            await cmd.ExecuteNonQueryAsync();
        }

        await MigrateAsync(database, null);
        var bytes = await database.QueryAsync("SELECT state FROM series_states ORDER BY benchmark_id", r => (byte[])r[0]);
        Assert.Empty(bytes[0]);
        for (var i = 0; i < states.Length; i++) Assert.Equal(OnlineDetectorStateCodec.Encode(states[i]), bytes[i + 1]);

        await MigrateAsync(database, Before);
        var restored = await database.QueryAsync("SELECT state::text FROM series_states ORDER BY benchmark_id", r => r.GetString(0));
        Assert.Equal("{}", restored[0]);
        for (var i = 0; i < states.Length; i++)
        {
            Assert.True(await database.ScalarAsync<bool>("SELECT $1::jsonb = $2::jsonb", restored[i + 1], json[i + 1]), $"state {i} restored as written");
            Assert.Equal(OnlineDetectorStateCodec.Encode(states[i]), OnlineDetectorStateCodec.Encode(JsonSerializer.Deserialize<OnlineDetectorState>(restored[i + 1])! with { DetectorVersion = 1 }));
        }
    }

    // The state record has since gained the version of the detector that wrote it, which the JSON never held.
    private static string AsTheOldCodeWroteIt(OnlineDetectorState state)
    {
        var node = System.Text.Json.Nodes.JsonNode.Parse(JsonSerializer.Serialize(state))!.AsObject();
        node.Remove(nameof(OnlineDetectorState.DetectorVersion));
        node.Remove(nameof(OnlineDetectorState.IsCurrent));
        return node.ToJsonString();
    }

    private static async Task MigrateAsync(TestDatabase database, string? target)
    {
        await using var db = DesignTimeDbContextFactory.Create(database.ConnectionString);
        await db.GetService<IMigrator>().MigrateAsync(target);
    }
}
