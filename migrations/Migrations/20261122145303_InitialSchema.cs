using System;
using Microsoft.EntityFrameworkCore.Migrations;
using Npgsql.EntityFrameworkCore.PostgreSQL.Metadata;

#nullable disable

#pragma warning disable CA1814 // Prefer jagged arrays over multidimensional

namespace PerfService.Migrations.Migrations
{
    /// <inheritdoc />
    public partial class InitialSchema : Migration
    {
        /// <inheritdoc />
        protected override void Up(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.CreateTable(
                name: "measures",
                columns: table => new
                {
                    id = table.Column<long>(type: "bigint", nullable: false)
                        .Annotation("Npgsql:ValueGenerationStrategy", NpgsqlValueGenerationStrategy.IdentityByDefaultColumn),
                    name = table.Column<string>(type: "character varying(200)", maxLength: 200, nullable: false),
                    unit = table.Column<string>(type: "character varying(64)", maxLength: 64, nullable: false),
                    direction = table.Column<string>(type: "character varying(32)", maxLength: 32, nullable: false)
                },
                constraints: table =>
                {
                    table.PrimaryKey("pk_measures", x => x.id);
                });

            migrationBuilder.CreateTable(
                name: "profiles",
                columns: table => new
                {
                    id = table.Column<long>(type: "bigint", nullable: false)
                        .Annotation("Npgsql:IdentitySequenceOptions", "'100', '1', '', '', 'False', '1'")
                        .Annotation("Npgsql:ValueGenerationStrategy", NpgsqlValueGenerationStrategy.IdentityByDefaultColumn),
                    name = table.Column<string>(type: "character varying(100)", maxLength: 100, nullable: false),
                    cpu_model = table.Column<string>(type: "text", nullable: true),
                    physical_cores = table.Column<int>(type: "integer", nullable: true),
                    logical_cores = table.Column<int>(type: "integer", nullable: true),
                    arch = table.Column<string>(type: "text", nullable: true)
                },
                constraints: table =>
                {
                    table.PrimaryKey("pk_profiles", x => x.id);
                });

            migrationBuilder.CreateTable(
                name: "projects",
                columns: table => new
                {
                    id = table.Column<long>(type: "bigint", nullable: false)
                        .Annotation("Npgsql:ValueGenerationStrategy", NpgsqlValueGenerationStrategy.IdentityByDefaultColumn),
                    slug = table.Column<string>(type: "character varying(100)", maxLength: 100, nullable: false),
                    name = table.Column<string>(type: "character varying(200)", maxLength: 200, nullable: false),
                    repository_url = table.Column<string>(type: "text", nullable: true),
                    default_branch = table.Column<string>(type: "character varying(250)", maxLength: 250, nullable: false),
                    is_public = table.Column<bool>(type: "boolean", nullable: false),
                    git_hub_repository = table.Column<string>(type: "text", nullable: true),
                    created_at = table.Column<DateTimeOffset>(type: "timestamp with time zone", nullable: false)
                },
                constraints: table =>
                {
                    table.PrimaryKey("pk_projects", x => x.id);
                });

            migrationBuilder.CreateTable(
                name: "webhook_deliveries",
                columns: table => new
                {
                    id = table.Column<long>(type: "bigint", nullable: false)
                        .Annotation("Npgsql:ValueGenerationStrategy", NpgsqlValueGenerationStrategy.IdentityByDefaultColumn),
                    delivery_id = table.Column<string>(type: "character varying(100)", maxLength: 100, nullable: false),
                    @event = table.Column<string>(name: "event", type: "character varying(64)", maxLength: 64, nullable: false),
                    received_at = table.Column<DateTimeOffset>(type: "timestamp with time zone", nullable: false)
                },
                constraints: table =>
                {
                    table.PrimaryKey("pk_webhook_deliveries", x => x.id);
                });

            migrationBuilder.CreateTable(
                name: "branches",
                columns: table => new
                {
                    id = table.Column<long>(type: "bigint", nullable: false)
                        .Annotation("Npgsql:ValueGenerationStrategy", NpgsqlValueGenerationStrategy.IdentityByDefaultColumn),
                    project_id = table.Column<long>(type: "bigint", nullable: false),
                    name = table.Column<string>(type: "character varying(250)", maxLength: 250, nullable: false)
                },
                constraints: table =>
                {
                    table.PrimaryKey("pk_branches", x => x.id);
                    table.ForeignKey(
                        name: "fk_branches_projects_project_id",
                        column: x => x.project_id,
                        principalTable: "projects",
                        principalColumn: "id",
                        onDelete: ReferentialAction.Cascade);
                });

            migrationBuilder.CreateTable(
                name: "commits",
                columns: table => new
                {
                    id = table.Column<long>(type: "bigint", nullable: false)
                        .Annotation("Npgsql:ValueGenerationStrategy", NpgsqlValueGenerationStrategy.IdentityByDefaultColumn),
                    project_id = table.Column<long>(type: "bigint", nullable: false),
                    sha = table.Column<string>(type: "character varying(64)", maxLength: 64, nullable: false),
                    message = table.Column<string>(type: "text", nullable: true),
                    author = table.Column<string>(type: "text", nullable: true),
                    committed_at = table.Column<DateTimeOffset>(type: "timestamp with time zone", nullable: true),
                    first_seen_at = table.Column<DateTimeOffset>(type: "timestamp with time zone", nullable: false)
                },
                constraints: table =>
                {
                    table.PrimaryKey("pk_commits", x => x.id);
                    table.ForeignKey(
                        name: "fk_commits_projects_project_id",
                        column: x => x.project_id,
                        principalTable: "projects",
                        principalColumn: "id",
                        onDelete: ReferentialAction.Cascade);
                });

            migrationBuilder.CreateTable(
                name: "pull_request_comments",
                columns: table => new
                {
                    id = table.Column<long>(type: "bigint", nullable: false)
                        .Annotation("Npgsql:ValueGenerationStrategy", NpgsqlValueGenerationStrategy.IdentityByDefaultColumn),
                    project_id = table.Column<long>(type: "bigint", nullable: false),
                    pull_request = table.Column<int>(type: "integer", nullable: false),
                    git_hub_comment_id = table.Column<long>(type: "bigint", nullable: true),
                    body_hash = table.Column<string>(type: "character varying(64)", maxLength: 64, nullable: true),
                    head_commit = table.Column<string>(type: "character varying(64)", maxLength: 64, nullable: true),
                    last_state = table.Column<string>(type: "character varying(16)", maxLength: 16, nullable: true),
                    updated_at = table.Column<DateTimeOffset>(type: "timestamp with time zone", nullable: false)
                },
                constraints: table =>
                {
                    table.PrimaryKey("pk_pull_request_comments", x => x.id);
                    table.ForeignKey(
                        name: "fk_pull_request_comments_projects_project_id",
                        column: x => x.project_id,
                        principalTable: "projects",
                        principalColumn: "id",
                        onDelete: ReferentialAction.Cascade);
                });

            migrationBuilder.CreateTable(
                name: "suites",
                columns: table => new
                {
                    id = table.Column<long>(type: "bigint", nullable: false)
                        .Annotation("Npgsql:ValueGenerationStrategy", NpgsqlValueGenerationStrategy.IdentityByDefaultColumn),
                    project_id = table.Column<long>(type: "bigint", nullable: false),
                    name = table.Column<string>(type: "character varying(200)", maxLength: 200, nullable: false),
                    harness = table.Column<string>(type: "character varying(32)", maxLength: 32, nullable: true)
                },
                constraints: table =>
                {
                    table.PrimaryKey("pk_suites", x => x.id);
                    table.ForeignKey(
                        name: "fk_suites_projects_project_id",
                        column: x => x.project_id,
                        principalTable: "projects",
                        principalColumn: "id",
                        onDelete: ReferentialAction.Cascade);
                });

            migrationBuilder.CreateTable(
                name: "tokens",
                columns: table => new
                {
                    id = table.Column<long>(type: "bigint", nullable: false)
                        .Annotation("Npgsql:ValueGenerationStrategy", NpgsqlValueGenerationStrategy.IdentityByDefaultColumn),
                    name = table.Column<string>(type: "character varying(200)", maxLength: 200, nullable: false),
                    hash = table.Column<byte[]>(type: "bytea", nullable: false),
                    scopes = table.Column<string[]>(type: "text[]", nullable: false),
                    project_id = table.Column<long>(type: "bigint", nullable: true),
                    created_at = table.Column<DateTimeOffset>(type: "timestamp with time zone", nullable: false),
                    revoked_at = table.Column<DateTimeOffset>(type: "timestamp with time zone", nullable: true),
                    last_used_at = table.Column<DateTimeOffset>(type: "timestamp with time zone", nullable: true)
                },
                constraints: table =>
                {
                    table.PrimaryKey("pk_tokens", x => x.id);
                    table.ForeignKey(
                        name: "fk_tokens_projects_project_id",
                        column: x => x.project_id,
                        principalTable: "projects",
                        principalColumn: "id",
                        onDelete: ReferentialAction.Cascade);
                });

            migrationBuilder.CreateTable(
                name: "benchmarks",
                columns: table => new
                {
                    id = table.Column<long>(type: "bigint", nullable: false)
                        .Annotation("Npgsql:ValueGenerationStrategy", NpgsqlValueGenerationStrategy.IdentityByDefaultColumn),
                    suite_id = table.Column<long>(type: "bigint", nullable: false),
                    key = table.Column<string>(type: "text", nullable: false),
                    name = table.Column<string>(type: "text", nullable: false),
                    parameters = table.Column<string>(type: "jsonb", nullable: false),
                    job = table.Column<string>(type: "text", nullable: true)
                },
                constraints: table =>
                {
                    table.PrimaryKey("pk_benchmarks", x => x.id);
                    table.ForeignKey(
                        name: "fk_benchmarks_suites_suite_id",
                        column: x => x.suite_id,
                        principalTable: "suites",
                        principalColumn: "id",
                        onDelete: ReferentialAction.Cascade);
                });

            migrationBuilder.CreateTable(
                name: "targets",
                columns: table => new
                {
                    id = table.Column<long>(type: "bigint", nullable: false)
                        .Annotation("Npgsql:ValueGenerationStrategy", NpgsqlValueGenerationStrategy.IdentityByDefaultColumn),
                    project_id = table.Column<long>(type: "bigint", nullable: false),
                    suite_id = table.Column<long>(type: "bigint", nullable: true),
                    name = table.Column<string>(type: "character varying(300)", maxLength: 300, nullable: false),
                    definition = table.Column<string>(type: "jsonb", nullable: false),
                    created_at = table.Column<DateTimeOffset>(type: "timestamp with time zone", nullable: false)
                },
                constraints: table =>
                {
                    table.PrimaryKey("pk_targets", x => x.id);
                    table.ForeignKey(
                        name: "fk_targets_projects_project_id",
                        column: x => x.project_id,
                        principalTable: "projects",
                        principalColumn: "id",
                        onDelete: ReferentialAction.Cascade);
                    table.ForeignKey(
                        name: "fk_targets_suites_suite_id",
                        column: x => x.suite_id,
                        principalTable: "suites",
                        principalColumn: "id",
                        onDelete: ReferentialAction.Cascade);
                });

            migrationBuilder.CreateTable(
                name: "agents",
                columns: table => new
                {
                    id = table.Column<long>(type: "bigint", nullable: false)
                        .Annotation("Npgsql:ValueGenerationStrategy", NpgsqlValueGenerationStrategy.IdentityByDefaultColumn),
                    name = table.Column<string>(type: "character varying(200)", maxLength: 200, nullable: false),
                    profile_id = table.Column<long>(type: "bigint", nullable: false),
                    token_id = table.Column<long>(type: "bigint", nullable: true),
                    machine = table.Column<string>(type: "jsonb", nullable: true),
                    profile_mismatch = table.Column<bool>(type: "boolean", nullable: false),
                    registered_at = table.Column<DateTimeOffset>(type: "timestamp with time zone", nullable: false),
                    last_seen_at = table.Column<DateTimeOffset>(type: "timestamp with time zone", nullable: false)
                },
                constraints: table =>
                {
                    table.PrimaryKey("pk_agents", x => x.id);
                    table.ForeignKey(
                        name: "fk_agents_profiles_profile_id",
                        column: x => x.profile_id,
                        principalTable: "profiles",
                        principalColumn: "id",
                        onDelete: ReferentialAction.Cascade);
                    table.ForeignKey(
                        name: "fk_agents_tokens_token_id",
                        column: x => x.token_id,
                        principalTable: "tokens",
                        principalColumn: "id",
                        onDelete: ReferentialAction.SetNull);
                });

            migrationBuilder.CreateTable(
                name: "series_states",
                columns: table => new
                {
                    id = table.Column<long>(type: "bigint", nullable: false)
                        .Annotation("Npgsql:ValueGenerationStrategy", NpgsqlValueGenerationStrategy.IdentityByDefaultColumn),
                    benchmark_id = table.Column<long>(type: "bigint", nullable: false),
                    measure_id = table.Column<long>(type: "bigint", nullable: false),
                    profile_id = table.Column<long>(type: "bigint", nullable: false),
                    branch_id = table.Column<long>(type: "bigint", nullable: false),
                    state = table.Column<string>(type: "jsonb", nullable: false),
                    last_series_at = table.Column<DateTimeOffset>(type: "timestamp with time zone", nullable: false),
                    last_result_id = table.Column<long>(type: "bigint", nullable: false),
                    updated_at = table.Column<DateTimeOffset>(type: "timestamp with time zone", nullable: false)
                },
                constraints: table =>
                {
                    table.PrimaryKey("pk_series_states", x => x.id);
                    table.ForeignKey(
                        name: "fk_series_states_benchmarks_benchmark_id",
                        column: x => x.benchmark_id,
                        principalTable: "benchmarks",
                        principalColumn: "id",
                        onDelete: ReferentialAction.Cascade);
                    table.ForeignKey(
                        name: "fk_series_states_branches_branch_id",
                        column: x => x.branch_id,
                        principalTable: "branches",
                        principalColumn: "id",
                        onDelete: ReferentialAction.Cascade);
                    table.ForeignKey(
                        name: "fk_series_states_measures_measure_id",
                        column: x => x.measure_id,
                        principalTable: "measures",
                        principalColumn: "id",
                        onDelete: ReferentialAction.Cascade);
                    table.ForeignKey(
                        name: "fk_series_states_profiles_profile_id",
                        column: x => x.profile_id,
                        principalTable: "profiles",
                        principalColumn: "id",
                        onDelete: ReferentialAction.Cascade);
                });

            migrationBuilder.CreateTable(
                name: "jobs",
                columns: table => new
                {
                    id = table.Column<long>(type: "bigint", nullable: false)
                        .Annotation("Npgsql:ValueGenerationStrategy", NpgsqlValueGenerationStrategy.IdentityByDefaultColumn),
                    project_id = table.Column<long>(type: "bigint", nullable: false),
                    kind = table.Column<string>(type: "character varying(32)", maxLength: 32, nullable: false),
                    commit = table.Column<string>(type: "character varying(64)", maxLength: 64, nullable: false),
                    base_commit = table.Column<string>(type: "character varying(64)", maxLength: 64, nullable: true),
                    branch = table.Column<string>(type: "character varying(250)", maxLength: 250, nullable: true),
                    pull_request = table.Column<int>(type: "integer", nullable: true),
                    suites = table.Column<string[]>(type: "text[]", nullable: false),
                    profile_id = table.Column<long>(type: "bigint", nullable: false),
                    priority = table.Column<int>(type: "integer", nullable: false),
                    state = table.Column<string>(type: "character varying(32)", maxLength: 32, nullable: false),
                    attempts = table.Column<int>(type: "integer", nullable: false),
                    max_attempts = table.Column<int>(type: "integer", nullable: false),
                    rounds = table.Column<int>(type: "integer", nullable: false),
                    quick = table.Column<bool>(type: "boolean", nullable: false),
                    agent_id = table.Column<long>(type: "bigint", nullable: true),
                    lease_expires_at = table.Column<DateTimeOffset>(type: "timestamp with time zone", nullable: true),
                    progress = table.Column<string>(type: "text", nullable: true),
                    reason = table.Column<string>(type: "text", nullable: true),
                    log = table.Column<string>(type: "text", nullable: false),
                    created_at = table.Column<DateTimeOffset>(type: "timestamp with time zone", nullable: false),
                    started_at = table.Column<DateTimeOffset>(type: "timestamp with time zone", nullable: true),
                    finished_at = table.Column<DateTimeOffset>(type: "timestamp with time zone", nullable: true)
                },
                constraints: table =>
                {
                    table.PrimaryKey("pk_jobs", x => x.id);
                    table.ForeignKey(
                        name: "fk_jobs_agents_agent_id",
                        column: x => x.agent_id,
                        principalTable: "agents",
                        principalColumn: "id",
                        onDelete: ReferentialAction.SetNull);
                    table.ForeignKey(
                        name: "fk_jobs_profiles_profile_id",
                        column: x => x.profile_id,
                        principalTable: "profiles",
                        principalColumn: "id",
                        onDelete: ReferentialAction.Cascade);
                    table.ForeignKey(
                        name: "fk_jobs_projects_project_id",
                        column: x => x.project_id,
                        principalTable: "projects",
                        principalColumn: "id",
                        onDelete: ReferentialAction.Cascade);
                });

            migrationBuilder.CreateTable(
                name: "runs",
                columns: table => new
                {
                    id = table.Column<long>(type: "bigint", nullable: false)
                        .Annotation("Npgsql:ValueGenerationStrategy", NpgsqlValueGenerationStrategy.IdentityByDefaultColumn),
                    project_id = table.Column<long>(type: "bigint", nullable: false),
                    commit_id = table.Column<long>(type: "bigint", nullable: false),
                    branch_id = table.Column<long>(type: "bigint", nullable: true),
                    pull_request = table.Column<int>(type: "integer", nullable: true),
                    base_commit_id = table.Column<long>(type: "bigint", nullable: true),
                    profile_id = table.Column<long>(type: "bigint", nullable: false),
                    agent_id = table.Column<long>(type: "bigint", nullable: true),
                    job_id = table.Column<long>(type: "bigint", nullable: true),
                    suite_id = table.Column<long>(type: "bigint", nullable: false),
                    role = table.Column<string>(type: "character varying(8)", maxLength: 8, nullable: false),
                    round = table.Column<int>(type: "integer", nullable: false),
                    format = table.Column<string>(type: "character varying(32)", maxLength: 32, nullable: false),
                    profile_mismatch = table.Column<bool>(type: "boolean", nullable: false),
                    environment = table.Column<string>(type: "jsonb", nullable: false),
                    environment_fingerprint = table.Column<string>(type: "character varying(64)", maxLength: 64, nullable: true),
                    idempotency_key = table.Column<string>(type: "character varying(200)", maxLength: 200, nullable: true),
                    started_at = table.Column<DateTimeOffset>(type: "timestamp with time zone", nullable: true),
                    finished_at = table.Column<DateTimeOffset>(type: "timestamp with time zone", nullable: true),
                    created_at = table.Column<DateTimeOffset>(type: "timestamp with time zone", nullable: false)
                },
                constraints: table =>
                {
                    table.PrimaryKey("pk_runs", x => x.id);
                    table.ForeignKey(
                        name: "fk_runs_agents_agent_id",
                        column: x => x.agent_id,
                        principalTable: "agents",
                        principalColumn: "id",
                        onDelete: ReferentialAction.SetNull);
                    table.ForeignKey(
                        name: "fk_runs_branches_branch_id",
                        column: x => x.branch_id,
                        principalTable: "branches",
                        principalColumn: "id");
                    table.ForeignKey(
                        name: "fk_runs_commits_base_commit_id",
                        column: x => x.base_commit_id,
                        principalTable: "commits",
                        principalColumn: "id");
                    table.ForeignKey(
                        name: "fk_runs_commits_commit_id",
                        column: x => x.commit_id,
                        principalTable: "commits",
                        principalColumn: "id",
                        onDelete: ReferentialAction.Cascade);
                    table.ForeignKey(
                        name: "fk_runs_jobs_job_id",
                        column: x => x.job_id,
                        principalTable: "jobs",
                        principalColumn: "id",
                        onDelete: ReferentialAction.SetNull);
                    table.ForeignKey(
                        name: "fk_runs_profiles_profile_id",
                        column: x => x.profile_id,
                        principalTable: "profiles",
                        principalColumn: "id",
                        onDelete: ReferentialAction.Cascade);
                    table.ForeignKey(
                        name: "fk_runs_projects_project_id",
                        column: x => x.project_id,
                        principalTable: "projects",
                        principalColumn: "id",
                        onDelete: ReferentialAction.Cascade);
                    table.ForeignKey(
                        name: "fk_runs_suites_suite_id",
                        column: x => x.suite_id,
                        principalTable: "suites",
                        principalColumn: "id",
                        onDelete: ReferentialAction.Cascade);
                });

            migrationBuilder.CreateTable(
                name: "verdicts",
                columns: table => new
                {
                    id = table.Column<long>(type: "bigint", nullable: false)
                        .Annotation("Npgsql:ValueGenerationStrategy", NpgsqlValueGenerationStrategy.IdentityByDefaultColumn),
                    job_id = table.Column<long>(type: "bigint", nullable: false),
                    project_id = table.Column<long>(type: "bigint", nullable: false),
                    pull_request = table.Column<int>(type: "integer", nullable: true),
                    benchmark_id = table.Column<long>(type: "bigint", nullable: false),
                    measure_id = table.Column<long>(type: "bigint", nullable: false),
                    profile_id = table.Column<long>(type: "bigint", nullable: false),
                    outcome = table.Column<string>(type: "character varying(32)", maxLength: 32, nullable: false),
                    base_median = table.Column<double>(type: "double precision", nullable: true),
                    head_median = table.Column<double>(type: "double precision", nullable: true),
                    change = table.Column<double>(type: "double precision", nullable: true),
                    change_ci_lower = table.Column<double>(type: "double precision", nullable: true),
                    change_ci_upper = table.Column<double>(type: "double precision", nullable: true),
                    p_value = table.Column<double>(type: "double precision", nullable: true),
                    adjusted_p_value = table.Column<double>(type: "double precision", nullable: true),
                    threshold = table.Column<double>(type: "double precision", nullable: false),
                    base_samples = table.Column<int>(type: "integer", nullable: false),
                    head_samples = table.Column<int>(type: "integer", nullable: false),
                    reason = table.Column<string>(type: "text", nullable: true),
                    wants_rerun = table.Column<bool>(type: "boolean", nullable: false),
                    created_at = table.Column<DateTimeOffset>(type: "timestamp with time zone", nullable: false)
                },
                constraints: table =>
                {
                    table.PrimaryKey("pk_verdicts", x => x.id);
                    table.ForeignKey(
                        name: "fk_verdicts_benchmarks_benchmark_id",
                        column: x => x.benchmark_id,
                        principalTable: "benchmarks",
                        principalColumn: "id",
                        onDelete: ReferentialAction.Cascade);
                    table.ForeignKey(
                        name: "fk_verdicts_jobs_job_id",
                        column: x => x.job_id,
                        principalTable: "jobs",
                        principalColumn: "id",
                        onDelete: ReferentialAction.Cascade);
                    table.ForeignKey(
                        name: "fk_verdicts_measures_measure_id",
                        column: x => x.measure_id,
                        principalTable: "measures",
                        principalColumn: "id",
                        onDelete: ReferentialAction.Cascade);
                    table.ForeignKey(
                        name: "fk_verdicts_profiles_profile_id",
                        column: x => x.profile_id,
                        principalTable: "profiles",
                        principalColumn: "id",
                        onDelete: ReferentialAction.Cascade);
                    table.ForeignKey(
                        name: "fk_verdicts_projects_project_id",
                        column: x => x.project_id,
                        principalTable: "projects",
                        principalColumn: "id",
                        onDelete: ReferentialAction.Cascade);
                });

            migrationBuilder.CreateTable(
                name: "alerts",
                columns: table => new
                {
                    id = table.Column<long>(type: "bigint", nullable: false)
                        .Annotation("Npgsql:ValueGenerationStrategy", NpgsqlValueGenerationStrategy.IdentityByDefaultColumn),
                    project_id = table.Column<long>(type: "bigint", nullable: false),
                    kind = table.Column<string>(type: "character varying(32)", maxLength: 32, nullable: false),
                    state = table.Column<string>(type: "character varying(32)", maxLength: 32, nullable: false),
                    benchmark_id = table.Column<long>(type: "bigint", nullable: true),
                    measure_id = table.Column<long>(type: "bigint", nullable: true),
                    profile_id = table.Column<long>(type: "bigint", nullable: true),
                    run_id = table.Column<long>(type: "bigint", nullable: true),
                    group_key = table.Column<string>(type: "character varying(200)", maxLength: 200, nullable: false),
                    from_commit = table.Column<string>(type: "character varying(64)", maxLength: 64, nullable: true),
                    to_commit = table.Column<string>(type: "character varying(64)", maxLength: 64, nullable: true),
                    summary = table.Column<string>(type: "text", nullable: false),
                    details = table.Column<string>(type: "jsonb", nullable: false),
                    issue_url = table.Column<string>(type: "text", nullable: true),
                    created_at = table.Column<DateTimeOffset>(type: "timestamp with time zone", nullable: false),
                    updated_at = table.Column<DateTimeOffset>(type: "timestamp with time zone", nullable: false)
                },
                constraints: table =>
                {
                    table.PrimaryKey("pk_alerts", x => x.id);
                    table.ForeignKey(
                        name: "fk_alerts_benchmarks_benchmark_id",
                        column: x => x.benchmark_id,
                        principalTable: "benchmarks",
                        principalColumn: "id",
                        onDelete: ReferentialAction.Cascade);
                    table.ForeignKey(
                        name: "fk_alerts_measures_measure_id",
                        column: x => x.measure_id,
                        principalTable: "measures",
                        principalColumn: "id");
                    table.ForeignKey(
                        name: "fk_alerts_profiles_profile_id",
                        column: x => x.profile_id,
                        principalTable: "profiles",
                        principalColumn: "id");
                    table.ForeignKey(
                        name: "fk_alerts_projects_project_id",
                        column: x => x.project_id,
                        principalTable: "projects",
                        principalColumn: "id",
                        onDelete: ReferentialAction.Cascade);
                    table.ForeignKey(
                        name: "fk_alerts_runs_run_id",
                        column: x => x.run_id,
                        principalTable: "runs",
                        principalColumn: "id",
                        onDelete: ReferentialAction.SetNull);
                });

            migrationBuilder.CreateTable(
                name: "artifacts",
                columns: table => new
                {
                    id = table.Column<long>(type: "bigint", nullable: false)
                        .Annotation("Npgsql:ValueGenerationStrategy", NpgsqlValueGenerationStrategy.IdentityByDefaultColumn),
                    run_id = table.Column<long>(type: "bigint", nullable: false),
                    path = table.Column<string>(type: "character varying(1000)", maxLength: 1000, nullable: false),
                    size = table.Column<long>(type: "bigint", nullable: false),
                    sha256 = table.Column<byte[]>(type: "bytea", nullable: false),
                    content_gzip = table.Column<byte[]>(type: "bytea", nullable: false),
                    created_at = table.Column<DateTimeOffset>(type: "timestamp with time zone", nullable: false)
                },
                constraints: table =>
                {
                    table.PrimaryKey("pk_artifacts", x => x.id);
                    table.ForeignKey(
                        name: "fk_artifacts_runs_run_id",
                        column: x => x.run_id,
                        principalTable: "runs",
                        principalColumn: "id",
                        onDelete: ReferentialAction.Cascade);
                });

            migrationBuilder.CreateTable(
                name: "results",
                columns: table => new
                {
                    id = table.Column<long>(type: "bigint", nullable: false)
                        .Annotation("Npgsql:ValueGenerationStrategy", NpgsqlValueGenerationStrategy.IdentityByDefaultColumn),
                    run_id = table.Column<long>(type: "bigint", nullable: false),
                    benchmark_id = table.Column<long>(type: "bigint", nullable: false),
                    measure_id = table.Column<long>(type: "bigint", nullable: false),
                    profile_id = table.Column<long>(type: "bigint", nullable: false),
                    branch_id = table.Column<long>(type: "bigint", nullable: true),
                    series_at = table.Column<DateTimeOffset>(type: "timestamp with time zone", nullable: false),
                    value = table.Column<double>(type: "double precision", nullable: true),
                    mean = table.Column<double>(type: "double precision", nullable: true),
                    median = table.Column<double>(type: "double precision", nullable: true),
                    std_dev = table.Column<double>(type: "double precision", nullable: true),
                    min = table.Column<double>(type: "double precision", nullable: true),
                    max = table.Column<double>(type: "double precision", nullable: true),
                    ci_lower = table.Column<double>(type: "double precision", nullable: true),
                    ci_upper = table.Column<double>(type: "double precision", nullable: true),
                    sample_count = table.Column<int>(type: "integer", nullable: false),
                    samples = table.Column<double[]>(type: "double precision[]", nullable: true),
                    error = table.Column<string>(type: "text", nullable: true)
                },
                constraints: table =>
                {
                    table.PrimaryKey("pk_results", x => x.id);
                    table.ForeignKey(
                        name: "fk_results_benchmarks_benchmark_id",
                        column: x => x.benchmark_id,
                        principalTable: "benchmarks",
                        principalColumn: "id",
                        onDelete: ReferentialAction.Cascade);
                    table.ForeignKey(
                        name: "fk_results_measures_measure_id",
                        column: x => x.measure_id,
                        principalTable: "measures",
                        principalColumn: "id",
                        onDelete: ReferentialAction.Cascade);
                    table.ForeignKey(
                        name: "fk_results_runs_run_id",
                        column: x => x.run_id,
                        principalTable: "runs",
                        principalColumn: "id",
                        onDelete: ReferentialAction.Cascade);
                });

            migrationBuilder.CreateTable(
                name: "target_results",
                columns: table => new
                {
                    id = table.Column<long>(type: "bigint", nullable: false)
                        .Annotation("Npgsql:ValueGenerationStrategy", NpgsqlValueGenerationStrategy.IdentityByDefaultColumn),
                    run_id = table.Column<long>(type: "bigint", nullable: false),
                    target_id = table.Column<long>(type: "bigint", nullable: true),
                    name = table.Column<string>(type: "character varying(300)", maxLength: 300, nullable: false),
                    outcome = table.Column<string>(type: "character varying(32)", maxLength: 32, nullable: false),
                    actual = table.Column<double>(type: "double precision", nullable: true),
                    limit = table.Column<double>(type: "double precision", nullable: true),
                    detail = table.Column<string>(type: "text", nullable: true)
                },
                constraints: table =>
                {
                    table.PrimaryKey("pk_target_results", x => x.id);
                    table.ForeignKey(
                        name: "fk_target_results_runs_run_id",
                        column: x => x.run_id,
                        principalTable: "runs",
                        principalColumn: "id",
                        onDelete: ReferentialAction.Cascade);
                    table.ForeignKey(
                        name: "fk_target_results_targets_target_id",
                        column: x => x.target_id,
                        principalTable: "targets",
                        principalColumn: "id",
                        onDelete: ReferentialAction.SetNull);
                });

            migrationBuilder.CreateTable(
                name: "alert_events",
                columns: table => new
                {
                    id = table.Column<long>(type: "bigint", nullable: false)
                        .Annotation("Npgsql:ValueGenerationStrategy", NpgsqlValueGenerationStrategy.IdentityByDefaultColumn),
                    alert_id = table.Column<long>(type: "bigint", nullable: false),
                    from_state = table.Column<string>(type: "character varying(32)", maxLength: 32, nullable: true),
                    to_state = table.Column<string>(type: "character varying(32)", maxLength: 32, nullable: false),
                    actor = table.Column<string>(type: "character varying(200)", maxLength: 200, nullable: false),
                    reason = table.Column<string>(type: "text", nullable: true),
                    at = table.Column<DateTimeOffset>(type: "timestamp with time zone", nullable: false)
                },
                constraints: table =>
                {
                    table.PrimaryKey("pk_alert_events", x => x.id);
                    table.ForeignKey(
                        name: "fk_alert_events_alerts_alert_id",
                        column: x => x.alert_id,
                        principalTable: "alerts",
                        principalColumn: "id",
                        onDelete: ReferentialAction.Cascade);
                });

            migrationBuilder.InsertData(
                table: "profiles",
                columns: new[] { "id", "arch", "cpu_model", "logical_cores", "name", "physical_cores" },
                values: new object[,]
                {
                    { 1L, "x64", "AMD Ryzen 9 9950X", 32, "ryzen-9950x", 16 },
                    { 2L, "x64", "Intel Core i7-4790K", 8, "i7-4790k", 4 },
                    { 3L, "arm64", "Apple M1 Pro", 10, "m1-pro", 10 }
                });

            migrationBuilder.CreateIndex(
                name: "ix_agents_name",
                table: "agents",
                column: "name",
                unique: true);

            migrationBuilder.CreateIndex(
                name: "ix_agents_profile_id",
                table: "agents",
                column: "profile_id");

            migrationBuilder.CreateIndex(
                name: "ix_agents_token_id",
                table: "agents",
                column: "token_id");

            migrationBuilder.CreateIndex(
                name: "ix_alert_events_alert_id",
                table: "alert_events",
                column: "alert_id");

            migrationBuilder.CreateIndex(
                name: "ix_alerts_benchmark_id_measure_id_profile_id_state",
                table: "alerts",
                columns: new[] { "benchmark_id", "measure_id", "profile_id", "state" });

            migrationBuilder.CreateIndex(
                name: "ix_alerts_measure_id",
                table: "alerts",
                column: "measure_id");

            migrationBuilder.CreateIndex(
                name: "ix_alerts_profile_id",
                table: "alerts",
                column: "profile_id");

            migrationBuilder.CreateIndex(
                name: "ix_alerts_project_id_state_created_at",
                table: "alerts",
                columns: new[] { "project_id", "state", "created_at" });

            migrationBuilder.CreateIndex(
                name: "ix_alerts_run_id",
                table: "alerts",
                column: "run_id");

            migrationBuilder.CreateIndex(
                name: "ix_artifacts_run_id",
                table: "artifacts",
                column: "run_id");

            migrationBuilder.CreateIndex(
                name: "ix_benchmarks_suite_id_key",
                table: "benchmarks",
                columns: new[] { "suite_id", "key" },
                unique: true);

            migrationBuilder.CreateIndex(
                name: "ix_branches_project_id_name",
                table: "branches",
                columns: new[] { "project_id", "name" },
                unique: true);

            migrationBuilder.CreateIndex(
                name: "ix_commits_project_id_sha",
                table: "commits",
                columns: new[] { "project_id", "sha" },
                unique: true);

            migrationBuilder.CreateIndex(
                name: "ix_jobs_agent_id",
                table: "jobs",
                column: "agent_id");

            migrationBuilder.CreateIndex(
                name: "ix_jobs_profile_id_state_priority_created_at",
                table: "jobs",
                columns: new[] { "profile_id", "state", "priority", "created_at" });

            migrationBuilder.CreateIndex(
                name: "ix_jobs_project_id_pull_request",
                table: "jobs",
                columns: new[] { "project_id", "pull_request" });

            migrationBuilder.CreateIndex(
                name: "ix_jobs_state_lease_expires_at",
                table: "jobs",
                columns: new[] { "state", "lease_expires_at" });

            migrationBuilder.CreateIndex(
                name: "ix_measures_name_unit",
                table: "measures",
                columns: new[] { "name", "unit" },
                unique: true);

            migrationBuilder.CreateIndex(
                name: "ix_profiles_name",
                table: "profiles",
                column: "name",
                unique: true);

            migrationBuilder.CreateIndex(
                name: "ix_projects_slug",
                table: "projects",
                column: "slug",
                unique: true);

            migrationBuilder.CreateIndex(
                name: "ix_pull_request_comments_project_id_pull_request",
                table: "pull_request_comments",
                columns: new[] { "project_id", "pull_request" },
                unique: true);

            migrationBuilder.CreateIndex(
                name: "ix_results_benchmark_id_measure_id_profile_id_branch_id_series",
                table: "results",
                columns: new[] { "benchmark_id", "measure_id", "profile_id", "branch_id", "series_at" })
                .Annotation("Npgsql:IndexInclude", new[] { "value", "ci_lower", "ci_upper", "sample_count", "run_id" });

            migrationBuilder.CreateIndex(
                name: "ix_results_measure_id",
                table: "results",
                column: "measure_id");

            migrationBuilder.CreateIndex(
                name: "ix_results_run_id_benchmark_id_measure_id",
                table: "results",
                columns: new[] { "run_id", "benchmark_id", "measure_id" },
                unique: true);

            migrationBuilder.CreateIndex(
                name: "ix_runs_agent_id",
                table: "runs",
                column: "agent_id");

            migrationBuilder.CreateIndex(
                name: "ix_runs_base_commit_id",
                table: "runs",
                column: "base_commit_id");

            migrationBuilder.CreateIndex(
                name: "ix_runs_branch_id",
                table: "runs",
                column: "branch_id");

            migrationBuilder.CreateIndex(
                name: "ix_runs_commit_id",
                table: "runs",
                column: "commit_id");

            migrationBuilder.CreateIndex(
                name: "ix_runs_job_id",
                table: "runs",
                column: "job_id");

            migrationBuilder.CreateIndex(
                name: "ix_runs_profile_id",
                table: "runs",
                column: "profile_id");

            migrationBuilder.CreateIndex(
                name: "ix_runs_project_id_created_at",
                table: "runs",
                columns: new[] { "project_id", "created_at" });

            migrationBuilder.CreateIndex(
                name: "ix_runs_project_id_idempotency_key",
                table: "runs",
                columns: new[] { "project_id", "idempotency_key" },
                unique: true,
                filter: "idempotency_key IS NOT NULL");

            migrationBuilder.CreateIndex(
                name: "ix_runs_suite_id",
                table: "runs",
                column: "suite_id");

            migrationBuilder.CreateIndex(
                name: "ix_series_states_benchmark_id_measure_id_profile_id_branch_id",
                table: "series_states",
                columns: new[] { "benchmark_id", "measure_id", "profile_id", "branch_id" },
                unique: true);

            migrationBuilder.CreateIndex(
                name: "ix_series_states_branch_id",
                table: "series_states",
                column: "branch_id");

            migrationBuilder.CreateIndex(
                name: "ix_series_states_measure_id",
                table: "series_states",
                column: "measure_id");

            migrationBuilder.CreateIndex(
                name: "ix_series_states_profile_id",
                table: "series_states",
                column: "profile_id");

            migrationBuilder.CreateIndex(
                name: "ix_suites_project_id_name",
                table: "suites",
                columns: new[] { "project_id", "name" },
                unique: true);

            migrationBuilder.CreateIndex(
                name: "ix_target_results_run_id",
                table: "target_results",
                column: "run_id");

            migrationBuilder.CreateIndex(
                name: "ix_target_results_target_id",
                table: "target_results",
                column: "target_id");

            migrationBuilder.CreateIndex(
                name: "ix_targets_project_id_suite_id_name",
                table: "targets",
                columns: new[] { "project_id", "suite_id", "name" },
                unique: true);

            migrationBuilder.CreateIndex(
                name: "ix_targets_suite_id",
                table: "targets",
                column: "suite_id");

            migrationBuilder.CreateIndex(
                name: "ix_tokens_hash",
                table: "tokens",
                column: "hash",
                unique: true);

            migrationBuilder.CreateIndex(
                name: "ix_tokens_project_id",
                table: "tokens",
                column: "project_id");

            migrationBuilder.CreateIndex(
                name: "ix_verdicts_benchmark_id",
                table: "verdicts",
                column: "benchmark_id");

            migrationBuilder.CreateIndex(
                name: "ix_verdicts_job_id_benchmark_id_measure_id",
                table: "verdicts",
                columns: new[] { "job_id", "benchmark_id", "measure_id" },
                unique: true);

            migrationBuilder.CreateIndex(
                name: "ix_verdicts_measure_id",
                table: "verdicts",
                column: "measure_id");

            migrationBuilder.CreateIndex(
                name: "ix_verdicts_profile_id",
                table: "verdicts",
                column: "profile_id");

            migrationBuilder.CreateIndex(
                name: "ix_verdicts_project_id_pull_request",
                table: "verdicts",
                columns: new[] { "project_id", "pull_request" });

            migrationBuilder.CreateIndex(
                name: "ix_webhook_deliveries_delivery_id",
                table: "webhook_deliveries",
                column: "delivery_id",
                unique: true);
        }

        /// <inheritdoc />
        protected override void Down(MigrationBuilder migrationBuilder)
        {
            migrationBuilder.DropTable(
                name: "alert_events");

            migrationBuilder.DropTable(
                name: "artifacts");

            migrationBuilder.DropTable(
                name: "pull_request_comments");

            migrationBuilder.DropTable(
                name: "results");

            migrationBuilder.DropTable(
                name: "series_states");

            migrationBuilder.DropTable(
                name: "target_results");

            migrationBuilder.DropTable(
                name: "verdicts");

            migrationBuilder.DropTable(
                name: "webhook_deliveries");

            migrationBuilder.DropTable(
                name: "alerts");

            migrationBuilder.DropTable(
                name: "targets");

            migrationBuilder.DropTable(
                name: "benchmarks");

            migrationBuilder.DropTable(
                name: "measures");

            migrationBuilder.DropTable(
                name: "runs");

            migrationBuilder.DropTable(
                name: "branches");

            migrationBuilder.DropTable(
                name: "commits");

            migrationBuilder.DropTable(
                name: "jobs");

            migrationBuilder.DropTable(
                name: "suites");

            migrationBuilder.DropTable(
                name: "agents");

            migrationBuilder.DropTable(
                name: "profiles");

            migrationBuilder.DropTable(
                name: "tokens");

            migrationBuilder.DropTable(
                name: "projects");
        }
    }
}
