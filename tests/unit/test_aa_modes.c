/* test_aa_modes.c: Agent Avenue's advanced mode (black market) and team
 * variant through the engine: every case of rules §11 is a named
 * scenario of the table below, in the manner of test_agent_avenue.c's
 * (a named case, a setup, moves, the expected result).
 *
 * A scenario is a seat count, options, a custom setup (or the normal
 * deal) and a list of steps:
 *   "<seat> <action>"   the move must be accepted;
 *   "!<seat> <action>"  it must be refused, changing nothing;
 *   "? <object>"        checks, each key a path and its expected value:
 *       "a/b/0"            a value in the spectator's view ("a/b/0#":
 *                          the length of the array there);
 *       "@seat/S/a/b"      a value in seat S's own view;
 *       "@actions/S"       seat S's listed actions, as a set;
 *       "@result"          {"winners":[...],"reason":...} or null;
 *       "@move/V/M"        move M (1-based) as viewer V (-1: spectator)
 *                          sees it in the log.
 * JSON in the table is written with ' for " (no string in it holds a ').
 * Then the rules-version checks (§7: stored base games replay as
 * before). */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "games/agent_avenue/aa.h"
#include "testhelp.h"

/* The table's JSON with ' for ".  Aborts on a typo. */
static json_t *jq(const char *text)
{
	char buf[4096];
	size_t n = strlen(text);
	if (n >= sizeof buf)
		abort();
	for (size_t i = 0; i <= n; i++)
		buf[i] = text[i] == '\'' ? '"' : text[i];
	json_error_t e;
	json_t *j = json_loads(buf, JSON_DECODE_ANY, &e);
	if (!j) {
		fprintf(stderr, "bad test JSON (%s): %s\n", e.text, buf);
		abort();
	}
	return j;
}

struct mcase {
	const char *name;
	int seats;
	const char *options; /* NULL: {} */
	const char *setup;   /* NULL: the normal deal */
	const char *refused; /* creation must fail citing this rule */
	const char *steps[24];
};

#define ADV         "{'mode':'advanced'}"
#define UP          "{'type':'recruit','pick':'face_up'}"
#define DN          "{'type':'recruit','pick':'face_down'}"
#define S4          "['sentinel','sentinel','sentinel','sentinel']"
#define PLAY(u, d)  "{'type':'play','face_up':'" u "','face_down':'" d "'}"
#define PUP(u)      "{'type':'play','face_up':'" u "'}"
#define PDN(d)      "{'type':'play','face_down':'" d "'}"
#define TAKE(b)     "{'type':'take','card':'" b "'}"
#define TAKEM(b, m) "{'type':'take','card':'" b "','member':" #m "}"
/* 2 seats, A = seat 0 first, N = seat 1 with four Sentinels. */
#define A2(hand, deck, rest)                                                   \
	"{'first_player':0,'hands':[" hand "," S4 "],'deck':" deck rest "}"

static const struct mcase cases[] = {
    /* ---- advanced mode, 2 seats ---- */
    {"§11.1 advanced: supply 3, black-market deck 12",
     2,
     ADV,
     NULL,
     NULL,
     {"? {'mode':'advanced','black_market/supply#':3,"
      "'black_market/deck_size':12,'black_market/discard':[],"
      "'teams/0/black_market':[],'pending':null}",
      NULL}},
    {"§11.1 mode expert refused", 2, "{'mode':'expert'}", NULL, "§7", {0}},
    {"§11.1 an unknown option refused", 2, "{'turbo':true}", NULL, "§7", {0}},
    {"§11.1 mode 3 refused", 2, "{'mode':3}", NULL, "§7", {0}},
    {"§11.1 5 seats refused", 5, NULL, NULL, "seats", {0}},
    {"§11.1 5 seats advanced refused", 5, ADV, NULL, "seats", {0}},
    {"§11.1 1 seat refused", 1, NULL, NULL, "seats", {0}},
    {"§11.1 a bm_ key in mode base refused",
     2,
     NULL,
     "{'bm_supply':['outpost','watchtower','masterplan']}",
     "§7.1",
     {0}},
    {"§11.1 3 seats: a team game with 26 deck cards",
     3,
     NULL,
     NULL,
     NULL,
     {"? {'deck_size':26,'players#':3,'teams/0/seats':[0,2],"
      "'teams/1/seats':[1]}",
      NULL}},
    {"§11.1 4 seats: a team game with 22 deck cards",
     4,
     NULL,
     NULL,
     NULL,
     {"? {'deck_size':22,'players#':4}", NULL}},
    {"§11.1 Masterplan with 7 names in play refused",
     2,
     ADV,
     "{'in_play':[{'double-agent':1,'enforcer':1,'codebreaker':1,"
     "'saboteur':1,'daredevil':1,'sentinel':1,'mole':1},{}],"
     "'bm_in_play':[['masterplan'],[]]}",
     "§8.8",
     {0}},
    {"§11.2 a stop onto 2: one take per supply card, N has none",
     2,
     ADV,
     A2("['daredevil','codebreaker','saboteur','saboteur']",
        "['enforcer','enforcer','enforcer']",
        ",'bm_supply':['watchtower','outpost','masterplan'],"
        "'bm_deck':['sinister-twin']"),
     NULL,
     {"0 " PLAY("codebreaker", "daredevil"), "1 " UP,
      "? {'teams/0/progress':2,'teams/0/space':2,'phase':'take',"
      "'acting':{'seat':0,'why':'take'},"
      "'pending':{'decision':'take','seat':0,'card':null},"
      "'@actions/0':[" TAKE("watchtower") "," TAKE("outpost") "," TAKE(
          "masterplan") "],'@actions/1':[]}",
      "!1 " TAKE("watchtower"), "!0 " TAKE("sinister-twin"),
      "!0 {'type':'take','card':'outpost','member':0}", NULL}},
    {"§11.3 a backward stop onto 2 takes",
     2,
     ADV,
     A2("['saboteur','codebreaker','enforcer','enforcer']", "[]",
        ",'progress':[3,0],'bm_supply':['watchtower','outpost',"
        "'masterplan'],'bm_deck':[]"),
     NULL,
     {"0 " PLAY("codebreaker", "saboteur"), "1 " UP,
      "? {'teams/0/progress':2,'acting':{'seat':0,'why':'take'}}", NULL}},
    {"§11.4 a 3rd Sentinel passes 2 and 5, ends on 6: no take",
     2,
     ADV,
     "{'first_player':0,'hands':[['sentinel','codebreaker','enforcer',"
     "'enforcer'],['saboteur','saboteur','daredevil','daredevil']],'deck':[],"
     "'in_play':[{'sentinel':2},{}]}",
     NULL,
     {"0 " PLAY("codebreaker", "sentinel"), "1 " UP,
      "? {'teams/0/progress':6,'phase':'play','acting':{'seat':1,"
      "'why':'play'},'black_market/supply#':3}",
      NULL}},
    {"§11.5 a 0 move on 2: no take",
     2,
     ADV,
     A2("['codebreaker','saboteur','enforcer','enforcer']", "[]",
        ",'progress':[2,0]"),
     NULL,
     {"0 " PLAY("saboteur", "codebreaker"), "1 " UP,
      "? {'teams/0/progress':2,'teams/1/progress':-1,'phase':'play',"
      "'acting':{'seat':1,'why':'play'}}",
      NULL}},
    {"§11.6 both stop: A takes, N takes from the refilled supply, End",
     2,
     ADV,
     A2("['saboteur','daredevil','enforcer','enforcer']", "[]",
        ",'progress':[0,3],'bm_supply':['watchtower','masterplan',"
        "'outpost'],'bm_deck':['getaway-car','spycation']"),
     NULL,
     {"0 " PLAY("saboteur", "daredevil"), "1 " UP,
      "? {'teams/0/progress':2,'teams/1/progress':2,'teams/1/space':9,"
      "'acting':{'seat':0,'why':'take'}}",
      "!1 " TAKE("watchtower"), "0 " TAKE("watchtower"),
      "? {'acting':{'seat':1,'why':'take'},'@actions/1':[" TAKE(
          "masterplan") "," TAKE("outpost") "," TAKE("getaway-car") "],'black_"
                                                                    "market/"
                                                                    "supply':['"
                                                                    "masterplan"
                                                                    "','"
                                                                    "outpost','"
                                                                    "getaway-"
                                                                    "car']}",
      "1 " TAKE("getaway-car"),
      "? {'phase':'play','turn':2,'active_player':1,'acting':{'seat':1,"
      "'why':'play'},'teams/0/black_market':['watchtower'],"
      "'teams/1/black_market':['getaway-car'],'black_market/supply':["
      "'masterplan','outpost','spycation'],'black_market/deck_size':0}",
      NULL}},
    {"§11.7 an empty black-market deck: the supply shrinks",
     2,
     ADV,
     A2("['codebreaker','daredevil','enforcer','enforcer']", "[]",
        ",'bm_supply':['masterplan','outpost'],'bm_deck':[]"),
     NULL,
     {"0 " PLAY("codebreaker", "daredevil"), "1 " UP, "0 " TAKE("masterplan"),
      "? {'black_market/supply':['outpost'],'phase':'play'}", NULL}},
    {"§11.7 an empty supply: a stop takes nothing",
     2,
     ADV,
     A2("['codebreaker','daredevil','enforcer','enforcer']", "[]",
        ",'bm_supply':[],'bm_deck':[]"),
     NULL,
     {"0 " PLAY("codebreaker", "daredevil"), "1 " UP,
      "? {'teams/0/progress':2,'phase':'play','acting':{'seat':1,"
      "'why':'play'},'pending':null}",
      NULL}},
    {"§11.8 Sinister Twin taken on the 2nd Double Agent's move: +6, then "
     "the 3rd moves -2",
     2,
     ADV,
     A2("['codebreaker','double-agent','double-agent','saboteur']",
        "['enforcer','enforcer','enforcer','enforcer']",
        ",'progress':[-1,0],'in_play':[{'double-agent':1},{}],"
        "'bm_supply':['sinister-twin','outpost','masterplan'],"
        "'bm_deck':[]"),
     NULL,
     {"0 " PLAY("codebreaker", "double-agent"), "1 " UP,
      "0 " TAKE("sinister-twin"),
      "? {'teams/0/progress':5,'last_turn/recruited/0/moved':6,"
      "'teams/0/black_market':['sinister-twin']}",
      "1 " PLAY("sentinel", "sentinel"), "0 " UP,
      "0 " PLAY("saboteur", "double-agent"), "1 " UP,
      "? {'teams/0/progress':3,'last_turn/recruited/0/moved':-2}", NULL}},
    {"§11.9 Distraction Device: 1st Saboteur +1",
     2,
     ADV,
     A2("['codebreaker','saboteur','enforcer','enforcer']", "[]",
        ",'bm_in_play':[['distraction-device'],[]]"),
     NULL,
     {"0 " PLAY("codebreaker", "saboteur"), "1 " UP, "? {'teams/0/progress':1}",
      NULL}},
    {"§11.9 Distraction Device: 3rd Saboteur +2",
     2,
     ADV,
     A2("['codebreaker','saboteur','enforcer','enforcer']", "[]",
        ",'progress':[1,0],'in_play':[{'saboteur':2},{}],"
        "'bm_in_play':[['distraction-device'],[]]"),
     NULL,
     {"0 " PLAY("codebreaker", "saboteur"), "1 " UP, "? {'teams/0/progress':3}",
      NULL}},
    {"§11.10 Watchtower: 1st Enforcer +3",
     2,
     ADV,
     A2("['codebreaker','enforcer','saboteur','saboteur']", "[]",
        ",'bm_in_play':[['watchtower'],[]]"),
     NULL,
     {"0 " PLAY("codebreaker", "enforcer"), "1 " UP, "? {'teams/0/progress':3}",
      NULL}},
    {"§11.10 Watchtower: 3rd Enforcer +5",
     2,
     ADV,
     A2("['codebreaker','enforcer','saboteur','saboteur']", "[]",
        ",'progress':[1,0],'in_play':[{'enforcer':2},{}],"
        "'bm_in_play':[['watchtower'],[]]"),
     NULL,
     {"0 " PLAY("codebreaker", "enforcer"), "1 " UP, "? {'teams/0/progress':6}",
      NULL}},
    {"§11.11 Sinister Twin: 1st Double Agent -2",
     2,
     ADV,
     A2("['codebreaker','double-agent','saboteur','saboteur']", "[]",
        ",'progress':[1,0],'bm_in_play':[['sinister-twin'],[]]"),
     NULL,
     {"0 " PLAY("codebreaker", "double-agent"), "1 " UP,
      "? {'teams/0/progress':-1}", NULL}},
    {"§11.11 Sinister Twin: 2nd Double Agent +12",
     2,
     ADV,
     A2("['codebreaker','double-agent','saboteur','saboteur']", "[]",
        ",'progress':[1,7],'in_play':[{'double-agent':1},{}],"
        "'bm_in_play':[['sinister-twin'],[]]"),
     NULL,
     {"0 " PLAY("codebreaker", "double-agent"), "1 " UP,
      "? {'teams/0/progress':13,'@result':null}", NULL}},
    {"§11.12 Supercomputer: 1st Codebreaker +3",
     2,
     ADV,
     A2("['codebreaker','saboteur','enforcer','enforcer']", "[]",
        ",'bm_in_play':[['supercomputer'],[]]"),
     NULL,
     {"0 " PLAY("saboteur", "codebreaker"), "1 " UP, "? {'teams/0/progress':3}",
      NULL}},
    {"§11.12 Supercomputer: 3rd Codebreaker +3 and A wins",
     2,
     ADV,
     A2("['codebreaker','saboteur','enforcer','enforcer']", "[]",
        ",'in_play':[{'codebreaker':2},{}],"
        "'bm_in_play':[['supercomputer'],[]]"),
     NULL,
     {"0 " PLAY("saboteur", "codebreaker"), "1 " UP,
      "? {'teams/0/progress':3,'@result':{'winners':[0],"
      "'reason':'codebreakers'}}",
      NULL}},
    {"§11.13 Leader of the Pack: A's 3rd Daredevil wins",
     2,
     ADV,
     A2("['codebreaker','daredevil','enforcer','enforcer']", "[]",
        ",'in_play':[{'daredevil':2},{}],"
        "'bm_in_play':[['leader-of-the-pack'],[]]"),
     NULL,
     {"0 " PLAY("codebreaker", "daredevil"), "1 " UP,
      "? {'@result':{'winners':[0],'reason':'leader_of_the_pack'}}", NULL}},
    {"§11.13 without Leader of the Pack N wins",
     2,
     ADV,
     A2("['codebreaker','daredevil','enforcer','enforcer']", "[]",
        ",'in_play':[{'daredevil':2},{}]"),
     NULL,
     {"0 " PLAY("codebreaker", "daredevil"), "1 " UP,
      "? {'@result':{'winners':[1],'reason':'daredevils'}}", NULL}},
    {"§11.14 Getaway Car: +2 onto 7 (N's home), +3, p 10, no take",
     2,
     ADV,
     A2("['codebreaker','daredevil','enforcer','enforcer']", "[]",
        ",'progress':[5,4],'bm_in_play':[['getaway-car'],[]]"),
     NULL,
     {"0 " PLAY("codebreaker", "daredevil"), "1 " UP,
      "? {'teams/0/progress':10,'last_turn/recruited/0/moved':5,"
      "'phase':'play'}",
      NULL}},
    {"§11.14 Getaway Car: from -2, +2 onto its own home, p 3",
     2,
     ADV,
     A2("['codebreaker','daredevil','enforcer','enforcer']", "[]",
        ",'progress':[-2,0],'bm_in_play':[['getaway-car'],[]]"),
     NULL,
     {"0 " PLAY("codebreaker", "daredevil"), "1 " UP,
      "? {'teams/0/progress':3,'phase':'play'}", NULL}},
    {"§11.14 Getaway Car: a 0 move on a home space: nothing",
     2,
     ADV,
     A2("['codebreaker','saboteur','enforcer','enforcer']", "[]",
        ",'progress':[7,3],'bm_in_play':[['getaway-car'],[]]"),
     NULL,
     {"0 " PLAY("saboteur", "codebreaker"), "1 " UP, "? {'teams/0/progress':7}",
      NULL}},
    {"§11.15 Masterplan: a 7th name in play wins",
     2,
     ADV,
     A2("['mole','codebreaker','enforcer','enforcer']", "[]",
        ",'in_play':[{'double-agent':1,'enforcer':1,'saboteur':1,"
        "'daredevil':1,'sentinel':1,'sidekick':1},{}],"
        "'bm_in_play':[['masterplan'],[]]"),
     NULL,
     {"0 " PLAY("mole", "codebreaker"), "1 " UP,
      "? {'@result':{'winners':[0],'reason':'masterplan'}}", NULL}},
    {"§11.16 Security System: N ends on A's home, A wins",
     2,
     ADV,
     A2("['daredevil','codebreaker','enforcer','enforcer']", "[]",
        ",'progress':[1,5],'bm_in_play':[['security-system'],[]]"),
     NULL,
     {"0 " PLAY("daredevil", "codebreaker"), "1 " UP,
      "? {'teams/1/space':0,'@result':{'winners':[0],"
      "'reason':'security_system'}}",
      NULL}},
    {"§11.16 Security System while N catches A: tie, A wins",
     2,
     ADV,
     A2("['daredevil','codebreaker','enforcer','enforcer']", "[]",
        ",'progress':[0,5],'bm_in_play':[['security-system'],[]]"),
     NULL,
     {"0 " PLAY("daredevil", "codebreaker"), "1 " UP,
      "? {'@result':{'winners':[0],'reason':'tie'}}", NULL}},
    {"§11.16 without Security System N wins",
     2,
     ADV,
     A2("['daredevil','codebreaker','enforcer','enforcer']", "[]",
        ",'progress':[0,5]"),
     NULL,
     {"0 " PLAY("daredevil", "codebreaker"), "1 " UP,
      "? {'@result':{'winners':[1],'reason':'catch'}}", NULL}},
    {"§11.17 Outpost: a 2nd Sentinel +2, refilled at once",
     2,
     ADV,
     A2("['daredevil','codebreaker','sentinel','enforcer']",
        "['enforcer','saboteur','double-agent']",
        ",'in_play':[{'sentinel':1},{}],'bm_supply':['outpost',"
        "'watchtower','masterplan'],'bm_deck':[]"),
     NULL,
     {"0 " PLAY("codebreaker", "daredevil"), "1 " UP,
      "? {'@seat/0/hand':['sentinel','enforcer','enforcer','saboteur'],"
      "'deck_size':1}",
      "0 " TAKE("outpost"),
      "? {'teams/0/progress':4,'teams/0/in_play/sentinel':2,"
      "'@seat/0/hand':['enforcer','enforcer','saboteur','double-agent'],"
      "'deck_size':0,'black_market/discard':['outpost'],'phase':'play'}",
      NULL}},
    {"§11.17 Outpost without a Sentinel: skipped, discarded",
     2,
     ADV,
     A2("['daredevil','codebreaker','enforcer','enforcer']",
        "['saboteur','mole']",
        ",'bm_supply':['outpost','watchtower','masterplan'],'bm_deck':[]"),
     NULL,
     {"0 " PLAY("codebreaker", "daredevil"), "1 " UP, "0 " TAKE("outpost"),
      "? {'teams/0/progress':2,'black_market/discard':['outpost'],"
      "'phase':'play','acting':{'seat':1,'why':'play'}}",
      NULL}},
    {"§11.18 Smoke Screen recruits the deck's top card",
     2,
     ADV,
     A2("['daredevil','codebreaker','enforcer','enforcer']",
        "['saboteur','mole','sidekick']",
        ",'bm_supply':['smoke-screen','watchtower','masterplan'],"
        "'bm_deck':[]"),
     NULL,
     {"0 " PLAY("codebreaker", "daredevil"), "1 " UP, "0 " TAKE("smoke-screen"),
      "? {'teams/0/progress':6,'teams/0/in_play/sidekick':1,"
      "'deck_size':0,'black_market/discard':['smoke-screen']}",
      NULL}},
    {"§11.18 Smoke Screen with an empty deck: skipped",
     2,
     ADV,
     A2("['daredevil','codebreaker','enforcer','enforcer']", "[]",
        ",'bm_supply':['smoke-screen','watchtower','masterplan'],"
        "'bm_deck':[]"),
     NULL,
     {"0 " PLAY("codebreaker", "daredevil"), "1 " UP, "0 " TAKE("smoke-screen"),
      "? {'teams/0/progress':2,'black_market/discard':['smoke-screen'],"
      "'phase':'play'}",
      NULL}},
    {"§11.19 Mind Control takes N's 3rd Codebreaker: N does not win",
     2,
     ADV,
     A2("['codebreaker','daredevil','enforcer','enforcer']",
        "['saboteur','saboteur','mole']",
        ",'in_play':[{},{'codebreaker':2}],'bm_supply':['mind-control',"
        "'watchtower','masterplan'],'bm_deck':[]"),
     NULL,
     {"0 " PLAY("codebreaker", "daredevil"), "1 " UP, "0 " TAKE("mind-control"),
      "? {'phase':'resolve','acting':{'seat':0,'why':'resolve'},"
      "'pending':{'decision':'mind_control','seat':0,"
      "'card':'mind-control'},'@actions/0':[{'type':'mind_control',"
      "'card':'codebreaker'}]}",
      "!0 {'type':'mind_control','card':'daredevil'}",
      "0 {'type':'mind_control','card':'codebreaker'}",
      "? {'@result':null,'teams/1/in_play':{'codebreaker':2},"
      "'teams/0/progress':2,'teams/1/progress':0,'players/0/hand_size':5,"
      "'deck_size':1,'@seat/0/hand':['enforcer','enforcer','saboteur',"
      "'saboteur','codebreaker'],'@seat/1/hand#':4,'phase':'play'}",
      NULL}},
    {"§11.20 Double Trouble: one Enforcer recruited, the other kept",
     2,
     ADV,
     A2("['daredevil','codebreaker','enforcer','enforcer']",
        "['saboteur','saboteur','mole','double-agent']",
        ",'bm_supply':['double-trouble','watchtower','masterplan'],"
        "'bm_deck':[]"),
     NULL,
     {"0 " PLAY("codebreaker", "daredevil"), "1 " UP,
      "0 " TAKE("double-trouble"),
      "? {'@actions/0':[{'type':'double_trouble','card':'enforcer'},"
      "{'type':'double_trouble','card':'saboteur'}]}",
      "0 {'type':'double_trouble','card':'enforcer'}",
      "? {'teams/0/progress':3,'teams/0/in_play/enforcer':1,"
      "'@seat/0/hand':['enforcer','saboteur','saboteur','mole'],"
      "'deck_size':1,'black_market/discard':['double-trouble']}",
      NULL}},
    {"§11.21 Surveillance Truck: +1",
     2,
     ADV,
     A2("['daredevil','codebreaker','enforcer','enforcer']", "[]",
        ",'bm_supply':['surveillance-truck','watchtower','masterplan'],"
        "'bm_deck':[]"),
     NULL,
     {"0 " PLAY("codebreaker", "daredevil"), "1 " UP,
      "0 " TAKE("surveillance-truck"),
      "? {'teams/0/progress':3,'black_market/discard':["
      "'surveillance-truck']}",
      NULL}},
    {"§11.22 Secret Recruit: a Sidekick from 5 onto 9 takes again",
     2,
     ADV,
     A2("['daredevil','codebreaker','sidekick','enforcer']",
        "['daredevil','saboteur','mole']",
        ",'progress':[3,4],'in_play':[{'enforcer':1},{}],"
        "'bm_supply':['secret-recruit','watchtower','masterplan'],"
        "'bm_deck':['getaway-car']"),
     NULL,
     {"0 " PLAY("codebreaker", "daredevil"), "1 " UP,
      "0 " TAKE("secret-recruit"),
      "? {'@actions/0':[{'type':'secret_recruit','card':'saboteur'},"
      "{'type':'secret_recruit','card':'sidekick'}]}",
      "!0 {'type':'secret_recruit','card':'enforcer'}",
      "0 {'type':'secret_recruit','card':'sidekick'}",
      "? {'teams/0/progress':9,'phase':'take','acting':{'seat':0,"
      "'why':'take'},'black_market/discard':[],'@actions/0':[" TAKE(
          "watchtower") "," TAKE("masterplan") "," TAKE("getaway-car") "]}",
      "0 " TAKE("watchtower"),
      "? {'black_market/discard':['secret-recruit'],'phase':'play'}", NULL}},
    {"§11.23 Spycation: a Double Agent back and recruited again: +6",
     2,
     ADV,
     A2("['daredevil','codebreaker','enforcer','enforcer']", "[]",
        ",'progress':[0,3],'in_play':[{'double-agent':2},{}],"
        "'bm_supply':['spycation','watchtower','masterplan'],"
        "'bm_deck':[]"),
     NULL,
     {"0 " PLAY("codebreaker", "daredevil"), "1 " UP, "0 " TAKE("spycation"),
      "? {'@actions/0':[{'type':'spycation','card':'double-agent',"
      "'recruit':false},{'type':'spycation','card':'double-agent',"
      "'recruit':true},{'type':'spycation','card':'daredevil',"
      "'recruit':false},{'type':'spycation','card':'daredevil',"
      "'recruit':true}]}",
      "0 {'type':'spycation','card':'double-agent','recruit':true}",
      "? {'teams/0/progress':8,'teams/0/in_play/double-agent':2,"
      "'players/0/hand_size':2,'@result':null}",
      NULL}},
    {"§11.23 Spycation without recruiting: 5 cards, 1 Double Agent",
     2,
     ADV,
     A2("['daredevil','codebreaker','enforcer','enforcer']",
        "['saboteur','saboteur']",
        ",'progress':[0,3],'in_play':[{'double-agent':2},{}],"
        "'bm_supply':['spycation','watchtower','masterplan'],"
        "'bm_deck':[]"),
     NULL,
     {"0 " PLAY("codebreaker", "daredevil"), "1 " UP, "0 " TAKE("spycation"),
      "0 {'type':'spycation','card':'double-agent','recruit':false}",
      "? {'teams/0/progress':2,'teams/0/in_play/double-agent':1,"
      "'players/0/hand_size':5}",
      NULL}},
    {"§11.24 a chain comes before the other player's take",
     2,
     ADV,
     A2("['saboteur','daredevil','enforcer','enforcer']",
        "['enforcer','enforcer','daredevil','mole']",
        ",'progress':[0,3],'bm_supply':['smoke-screen','watchtower',"
        "'masterplan'],'bm_deck':['getaway-car','spycation']"),
     NULL,
     {"0 " PLAY("saboteur", "daredevil"), "1 " UP, "0 " TAKE("smoke-screen"),
      "? {'teams/0/progress':5,'acting':{'seat':0,'why':'take'},"
      "'black_market/supply':['watchtower','masterplan','getaway-car'],"
      "'black_market/discard':[]}",
      "0 " TAKE("getaway-car"),
      "? {'acting':{'seat':1,'why':'take'},'black_market/discard':["
      "'smoke-screen'],'black_market/supply':['watchtower','masterplan',"
      "'spycation']}",
      "1 " TAKE("watchtower"), "? {'phase':'play','active_player':1}", NULL}},
    {"§11.25 Double Trouble without a pair: skipped, N plays next",
     2,
     ADV,
     A2("['daredevil','codebreaker','enforcer','saboteur']",
        "['mole','sidekick']",
        ",'bm_supply':['double-trouble','watchtower','masterplan'],"
        "'bm_deck':[]"),
     NULL,
     {"0 " PLAY("codebreaker", "daredevil"), "1 " UP,
      "0 " TAKE("double-trouble"),
      "? {'phase':'play','acting':{'seat':1,'why':'play'},"
      "'black_market/discard':['double-trouble'],'pending':null}",
      NULL}},
    {"§11.26 N's Surveillance Truck undoes A's catch",
     2,
     ADV,
     A2("['saboteur','daredevil','enforcer','enforcer']", "[]",
        ",'progress':[7,3],'bm_supply':['masterplan','surveillance-truck',"
        "'watchtower'],'bm_deck':['getaway-car']"),
     NULL,
     {"0 " PLAY("saboteur", "daredevil"), "1 " UP,
      "? {'teams/0/progress':9,'teams/1/progress':2,'@result':null}",
      "0 " TAKE("masterplan"), "1 " TAKE("surveillance-truck"),
      "? {'@result':null,'teams/1/progress':3,'phase':'play'}", NULL}},
    {"§11.26 had N taken another card, A would win",
     2,
     ADV,
     A2("['saboteur','daredevil','enforcer','enforcer']", "[]",
        ",'progress':[7,3],'bm_supply':['masterplan','surveillance-truck',"
        "'watchtower'],'bm_deck':['getaway-car']"),
     NULL,
     {"0 " PLAY("saboteur", "daredevil"), "1 " UP, "0 " TAKE("masterplan"),
      "1 " TAKE("watchtower"), "? {'@result':{'winners':[0],'reason':'catch'}}",
      NULL}},

    /* ---- the team variant ---- */
    {"§11.27 4 seats: teams {0,2} and {1,3}, 2 discards each",
     4,
     NULL,
     NULL,
     NULL,
     {"? {'teams/0/seats':[0,2],'teams/1/seats':[1,3],"
      "'players/0/team':0,'players/3/team':1,"
      "'players/0/discards_left':2,'players/1/discards_left':2,"
      "'players/2/discards_left':2,'players/3/discards_left':2}",
      NULL}},
    {"§11.27 3 seats: teams {0,2} and {1}, discards 2, 4, 2",
     3,
     NULL,
     NULL,
     NULL,
     {"? {'teams/0/seats':[0,2],'teams/1/seats':[1],"
      "'players/0/discards_left':2,'players/1/discards_left':4,"
      "'players/2/discards_left':2}",
      NULL}},
    {"§11.30 after a face-up Enforcer the partner may not play one",
     4,
     NULL,
     "{'first_player':0,'hands':[['enforcer','mole'],['saboteur'],"
     "['enforcer','saboteur','sentinel','codebreaker'],['sentinel']],"
     "'deck':[]}",
     NULL,
     {"0 " PUP("enforcer"),
      "? {'acting':{'seat':2,'why':'play'},'@actions/2':[" PDN(
          "saboteur") "," PDN("codebreaker") "," PDN("sentinel") "]}",
      "!2 " PDN("enforcer"), "2 " PDN("sentinel"), NULL}},
    {"§11.30 holding only Enforcers the partner must play one",
     4,
     NULL,
     "{'first_player':0,'hands':[['enforcer','mole'],['saboteur'],"
     "['enforcer','enforcer','enforcer','enforcer'],['sentinel']],"
     "'deck':[]}",
     NULL,
     {"0 " PUP("enforcer"), "? {'@actions/2':[" PDN("enforcer") "]}",
      "2 " PDN("enforcer"), NULL}},
    {"§11.31 hand_over: the partner plays face up, the lead face down",
     4,
     NULL,
     "{'first_player':0,'hands':[['mole','saboteur'],['saboteur'],"
     "['enforcer','codebreaker'],['sentinel']],'deck':['daredevil',"
     "'daredevil','daredevil','daredevil','daredevil','daredevil']}",
     NULL,
     {"? {'@actions/0':[{'type':'discard','card':'saboteur'},"
      "{'type':'discard','card':'mole'}," PUP("saboteur") "," PUP(
          "mole") ",{'type':'hand_over'}]}",
      "0 {'type':'discard','card':'mole'}",
      "? {'@actions/0':[{'type':'discard','card':'saboteur'},"
      "{'type':'discard','card':'daredevil'}," PUP("saboteur") "," PUP(
          "daredevil") ",{'type':'hand_over'}]}",
      "0 {'type':'hand_over'}",
      "? {'acting':{'seat':2,'why':'play'},'@actions/0':[],"
      "'@actions/2':[{'type':'discard','card':'enforcer'},"
      "{'type':'discard','card':'codebreaker'}," PUP("enforcer") "," PUP(
          "codebreaker") "]}",
      "!2 {'type':'hand_over'}", "2 " PUP("enforcer"),
      "? {'acting':{'seat':0,'why':'play'},'@actions/0':[{'type':'discard',"
      "'card':'saboteur'},{'type':'discard','card':'daredevil'}," PDN(
          "saboteur") "," PDN("daredevil") "]}",
      "!0 {'type':'hand_over'}", "0 " PDN("saboteur"),
      "? {'phase':'recruit','acting':{'seat':1,'why':'recruit'},"
      "'played/face_up':'enforcer','played/face_up_seat':2,"
      "'played/face_down':null,'played/face_down_seat':0}",
      NULL}},
    {"§11.32 the face-up player refills before its partner acts",
     4,
     NULL,
     "{'first_player':0,'hands':[['mole','saboteur','enforcer','enforcer'],"
     "['saboteur'],['enforcer','codebreaker'],['sentinel']],"
     "'deck':['daredevil','daredevil','daredevil']}",
     NULL,
     {"0 " PUP("mole"),
      "? {'players/0/hand_size':4,'deck_size':2,'acting':{'seat':2,"
      "'why':'play'}}",
      NULL}},
    {"§11.32 1 card in the deck: the face-up player draws it",
     4,
     NULL,
     "{'first_player':0,'hands':[['mole','saboteur','enforcer','enforcer'],"
     "['saboteur'],['enforcer','codebreaker','sentinel','sentinel'],"
     "['sentinel']],'deck':['daredevil']}",
     NULL,
     {"0 " PUP("mole"), "? {'players/0/hand_size':4,'deck_size':0}",
      "2 " PDN("codebreaker"), "? {'players/2/hand_size':3}", NULL}},
    {"§11.33 the solo seat discards a 4th time, then no more",
     3,
     NULL,
     "{'first_player':1,'hands':[['sentinel'],['mole','saboteur'],"
     "['sentinel']],'deck':['enforcer','enforcer'],"
     "'discards_used':[0,3,0]}",
     NULL,
     {"1 {'type':'discard','card':'mole'}",
      "? {'players/1/discards':4,'players/1/discards_left':0,"
      "'@actions/1':[" PLAY("enforcer", "saboteur") "," PLAY("saboteur",
                                                             "enforcer") "]}",
      "!1 {'type':'discard','card':'saboteur'}", NULL}},
    {"§11.33 a teammate discards at most twice; the face-down player after "
     "the face-up card",
     3,
     NULL,
     "{'first_player':0,'hands':[['mole','saboteur'],['sentinel',"
     "'sentinel'],['sentinel','codebreaker']],'deck':['enforcer',"
     "'enforcer','enforcer','enforcer','double-agent','double-agent',"
     "'double-agent','double-agent'],'discards_used':[1,0,0]}",
     NULL,
     {"0 {'type':'discard','card':'mole'}",
      "!0 {'type':'discard','card':'saboteur'}", "0 " PUP("saboteur"),
      "2 {'type':'discard','card':'codebreaker'}",
      "? {'players/2/discards':1,'players/0/discards_left':0}", NULL}},
    {"§11.33 discards_used 3 for a teammate refused",
     3,
     NULL,
     "{'discards_used':[3,0,0]}",
     "§9.6",
     {0}},
    {"§11.33 discards_used 5 for the solo seat refused",
     3,
     NULL,
     "{'discards_used':[0,5,0]}",
     "§9.6",
     {0}},
    {"§11.34 the solo seat plays both cards; the other team's voice picks",
     3,
     NULL,
     "{'first_player':1,'hands':[['sentinel'],['mole','saboteur'],"
     "['sentinel']],'deck':[]}",
     NULL,
     {"!1 " PUP("mole"), "1 " PLAY("mole", "saboteur"),
      "? {'acting':{'seat':2,'why':'recruit'},'@actions/0':[]}", "!0 " UP,
      "2 " DN,
      "? {'teams/0/in_play':{'saboteur':1},'teams/1/in_play':{'mole':1}}",
      NULL}},
    {"§11.35 recruits go to the team's play and meeple; only the voice "
     "picks",
     4,
     NULL,
     "{'first_player':0,'hands':[['enforcer','mole'],['saboteur',"
     "'daredevil'],['codebreaker','sentinel'],['sentinel','double-agent']],"
     "'deck':[]}",
     NULL,
     {"0 " PUP("enforcer"), "2 " PDN("codebreaker"), "!3 " UP, "1 " UP,
      "? {'teams/1/in_play':{'enforcer':1},'teams/1/progress':1,"
      "'teams/0/in_play':{'codebreaker':1},'teams/0/progress':0,"
      "'@seat/3/hand':['sentinel','double-agent'],"
      "'@seat/1/hand':['saboteur','daredevil'],'acting':{'seat':1,"
      "'why':'play'}}",
      NULL}},
    {"§11.36 4 seats, empty deck, the next team cannot play: the closer "
     "team wins",
     4,
     NULL,
     "{'first_player':0,'hands':[['codebreaker'],['enforcer'],"
     "['sentinel'],[]],'deck':[],'progress':[2,0]}",
     NULL,
     {"0 " PUP("codebreaker"), "2 " PDN("sentinel"), "1 " UP,
      "? {'@result':{'winners':[0,2],'reason':'out_of_cards'}}", NULL}},
    {"§11.36 ... the other team when it is closer",
     4,
     NULL,
     "{'first_player':0,'hands':[['codebreaker'],['enforcer'],"
     "['sentinel'],[]],'deck':[],'progress':[0,2]}",
     NULL,
     {"0 " PUP("codebreaker"), "2 " PDN("sentinel"), "1 " UP,
      "? {'@result':{'winners':[1,3],'reason':'out_of_cards'}}", NULL}},
    {"§11.36 ... the active team at equal distance",
     4,
     NULL,
     "{'first_player':0,'hands':[['codebreaker'],['enforcer'],"
     "['sentinel'],[]],'deck':[]}",
     NULL,
     {"0 " PUP("codebreaker"), "2 " PDN("sentinel"), "1 " UP,
      "? {'@result':{'winners':[0,2],'reason':'out_of_cards'}}", NULL}},
    {"§11.37 3 seats: the solo seat with 1 card ends the game",
     3,
     NULL,
     "{'first_player':0,'hands':[['codebreaker'],['enforcer'],"
     "['sentinel']],'deck':[]}",
     NULL,
     {"0 " PUP("codebreaker"), "2 " PDN("sentinel"), "1 " UP,
      "? {'@result':{'winners':[0,2],'reason':'out_of_cards'}}", NULL}},
    {"§11.37 ... with 2 cards it plays on",
     3,
     NULL,
     "{'first_player':0,'hands':[['codebreaker'],['enforcer','saboteur'],"
     "['sentinel']],'deck':[]}",
     NULL,
     {"0 " PUP("codebreaker"), "2 " PDN("sentinel"), "1 " UP,
      "? {'@result':null,'acting':{'seat':1,'why':'play'}}", NULL}},
    {"§11.38 a team's take names the gainer; Mind Control into seat 2's "
     "hand",
     4,
     ADV,
     "{'first_player':0,'hands':[['codebreaker','mole'],['saboteur'],"
     "['daredevil','sentinel'],['sentinel']],'deck':[],"
     "'in_play':[{},{'enforcer':1}],'bm_supply':['mind-control',"
     "'watchtower','masterplan'],'bm_deck':[]}",
     NULL,
     {"0 " PUP("codebreaker"), "2 " PDN("daredevil"), "1 " UP,
      "? {'teams/0/progress':2,'acting':{'seat':0,'why':'take'},"
      "'@actions/0':[" TAKEM("mind-control", 0) "," TAKEM(
          "mind-control", 2) "," TAKE("watchtower") "," TAKE("masterplan") "]}",
      "!0 " TAKE("mind-control"), "!0 " TAKEM("mind-control", 1),
      "!0 " TAKEM("watchtower", 0), "0 " TAKEM("mind-control", 2),
      "? {'acting':{'seat':2,'why':'resolve'},'pending':{'decision':"
      "'mind_control','seat':2,'card':'mind-control'},'@actions/2':["
      "{'type':'mind_control','card':'enforcer'},{'type':'mind_control',"
      "'card':'codebreaker'}],'@actions/0':[]}",
      "2 {'type':'mind_control','card':'enforcer'}",
      "? {'@seat/2/hand':['sentinel','enforcer'],'players/2/hand_size':2,"
      "'teams/1/in_play':{'codebreaker':1},'@seat/0/hand':['mole']}",
      NULL}},
    {"§11.39 3 seats advanced: supply 3, black-market deck 12",
     3,
     ADV,
     NULL,
     NULL,
     {"? {'black_market/supply#':3,'black_market/deck_size':12}", NULL}},
    {"§11.39 4 seats advanced: supply 3, black-market deck 12",
     4,
     ADV,
     NULL,
     NULL,
     {"? {'black_market/supply#':3,'black_market/deck_size':12}", NULL}},
    {"§11.40 the face-down card: its seat only, until recruited",
     4,
     NULL,
     "{'first_player':0,'hands':[['enforcer','mole'],['saboteur',"
     "'daredevil'],['codebreaker','sentinel'],['sentinel','double-agent']],"
     "'deck':[]}",
     NULL,
     {"0 " PUP("enforcer"), "2 " PDN("codebreaker"),
      "? {'@seat/2/played/face_down':'codebreaker',"
      "'@seat/0/played/face_down':null,'@seat/1/played/face_down':null,"
      "'@seat/3/played/face_down':null,'played/face_down':null,"
      "'played/face_up':'enforcer',"
      "'@move/2/2':" PDN(
          "codebreaker") ",'@move/0/2':{'type':'play',"
                         "'face_down':null},'@move/1/"
                         "2':{'type':'play','face_down':null},"
                         "'@move/-1/2':{'type':'play','face_down':null}}",
      "1 " UP,
      "? {'@move/0/2':" PDN("codebreaker") ",'@move/1/2':" PDN(
          "codebreaker") ",'last_turn/recruited/0/card':'codebreaker'}",
      NULL}},
    {"§11.41 both teams stop: the active lead, then the other voice, then "
     "End",
     4,
     ADV,
     "{'first_player':0,'hands':[['saboteur','mole'],['enforcer'],"
     "['daredevil','sentinel'],['sentinel']],'deck':[],'progress':[0,3],"
     "'bm_supply':['watchtower','masterplan','outpost'],'bm_deck':[]}",
     NULL,
     {"0 " PUP("saboteur"), "2 " PDN("daredevil"), "1 " UP,
      "? {'acting':{'seat':0,'why':'take'}}", "!1 " TAKE("masterplan"),
      "0 " TAKE("watchtower"), "? {'acting':{'seat':1,'why':'take'}}",
      "1 " TAKE("masterplan"),
      "? {'phase':'play','active_player':1,'active_team':1,"
      "'acting':{'seat':1,'why':'play'},'teams/0/lead':2,"
      "'teams/0/black_market':['watchtower'],"
      "'teams/1/black_market':['masterplan']}",
      NULL}},
    {"§11.42 3 Codebreakers through a teammate's face-down card",
     4,
     NULL,
     "{'first_player':0,'hands':[['enforcer','mole'],['saboteur'],"
     "['codebreaker','sentinel'],['sentinel']],'deck':[],"
     "'in_play':[{'codebreaker':2},{}]}",
     NULL,
     {"0 " PUP("enforcer"), "2 " PDN("codebreaker"), "1 " UP,
      "? {'@result':{'winners':[0,2],'reason':'codebreakers'}}", NULL}},
    /* ---- §7.1 refusals beyond the cases ---- */
    {"§7.1 a black-market card named twice refused",
     2,
     ADV,
     "{'bm_supply':['outpost','watchtower','masterplan'],"
     "'bm_deck':['outpost']}",
     "§8.1",
     {0}},
    {"§7.1 an instant card in bm_in_play refused",
     2,
     ADV,
     "{'bm_in_play':[['outpost'],[]]}",
     "§8.1",
     {0}},
    {"§7.1 an ongoing card in bm_discard refused",
     2,
     ADV,
     "{'bm_discard':['watchtower']}",
     "§8.1",
     {0}},
    {"§7.1 a supply of 4 refused",
     2,
     ADV,
     "{'bm_supply':['outpost','watchtower','masterplan','spycation']}",
     "§8.1",
     {0}},
    {"§7.1 a supply of 2 with a black-market deck refused",
     2,
     ADV,
     "{'bm_supply':['outpost','watchtower'],'bm_deck':['spycation']}",
     "§8.5",
     {0}},
    {"§7.1 an unknown black-market id refused",
     2,
     ADV,
     "{'bm_supply':['ceasefire']}",
     "§8.2",
     {0}},
    {"§7.1 Security System with the opponent on its home refused",
     2,
     ADV,
     "{'progress':[0,-7],'bm_in_play':[['security-system'],[]]}",
     "§3",
     {0}},
    {"§7.1 Security System with the opponent on its home refused (team 1)",
     2,
     ADV,
     "{'progress':[-3,0],'bm_in_play':[[],['security-system']]}",
     NULL,
     {"? {'teams/0/space':11}", NULL}},
    {"§7.1 3 seats: hands need 3 arrays",
     3,
     NULL,
     "{'hands':[['mole'],['sidekick']]}",
     "§7.1",
     {0}},
    {"§7.1 first_player 3 with 3 seats refused",
     3,
     NULL,
     "{'first_player':3}",
     "§7.1",
     {0}},
    {"§7.1 4 seats: the first team stuck refused",
     4,
     NULL,
     "{'first_player':0,'hands':[['mole'],['saboteur'],[],['sentinel']]}",
     "§9.8",
     {0}},
    {"§7.1 4 seats: the second team stuck with a deck refused",
     4,
     NULL,
     "{'first_player':0,'hands':[['mole'],['saboteur'],['enforcer'],[]],"
     "'deck':['sentinel']}",
     "§9.8",
     {0}},
    {"§7.1 every key at once",
     4,
     ADV,
     "{'first_player':3,'hands':[['mole'],['saboteur','enforcer'],"
     "['enforcer'],['sentinel','sentinel']],'deck':['daredevil'],"
     "'progress':[1,2],'in_play':[{'codebreaker':1},{'daredevil':2}],"
     "'discards_used':[1,0,2,1],'bm_supply':['outpost'],'bm_deck':[],"
     "'bm_in_play':[['watchtower'],['getaway-car','masterplan']],"
     "'bm_discard':['spycation','mind-control']}",
     NULL,
     {"? {'active_player':3,'active_team':1,'teams/0/lead':0,"
      "'teams/0/progress':1,'teams/1/in_play':{'daredevil':2},"
      "'players/2/discards_left':0,'players/3/discards_left':1,"
      "'black_market/supply':['outpost'],'black_market/deck_size':0,"
      "'teams/1/black_market':['getaway-car','masterplan'],"
      "'black_market/discard':['spycation','mind-control'],"
      "'deck_size':1,'custom':true}",
      NULL}},
};

/* ---- the runner ---- */

/* The value at a '/' path (object keys, array indices); NULL if none. */
static json_t *at(json_t *j, const char *path)
{
	char buf[256];
	snprintf(buf, sizeof buf, "%s", path);
	for (char *tok = strtok(buf, "/"); tok && j; tok = strtok(NULL, "/"))
		j = json_is_array(j) ? json_array_get(j, strtoul(tok, NULL, 10))
		                     : json_object_get(j, tok);
	return j;
}

/* 1 if two arrays hold the same elements (any order). */
static int same_set(const json_t *a, const json_t *b)
{
	if (!json_is_array(a) || !json_is_array(b) ||
	    json_array_size(a) != json_array_size(b))
		return 0;
	size_t i, j;
	json_t *x, *y;
	json_array_foreach(a, i, x) {
		int found = 0;
		json_array_foreach(b, j, y)
			found |= json_equal(x, y);
		if (!found)
			return 0;
	}
	return 1;
}

static void show(const char *what, const json_t *got, const json_t *want)
{
	char *g =
	    got ? json_dumps(got, JSON_ENCODE_ANY | JSON_SORT_KEYS) : NULL;
	char *w = json_dumps(want, JSON_ENCODE_ANY | JSON_SORT_KEYS);
	fprintf(stderr, "  %s\n    got:  %s\n    want: %s\n", what,
	        g ? g : "(none)", w ? w : "?");
	free(g), free(w);
}

struct played {
	struct engine_game **snap; /* snap[m]: the game after m moves */
	int *actor;
	json_t **act;
	size_t n;
};

/* One "? {...}" step: every key checked; 1 if all hold. */
static int check_step(struct engine_game *g, const struct played *p,
                      const char *text)
{
	json_t *want = jq(text), *v;
	const char *key;
	int ok = 1;
	json_object_foreach(want, key, v) {
		json_t *got = NULL, *owned = NULL;
		int set = 0, len = key[strlen(key) - 1] == '#';
		char path[256];
		snprintf(path, sizeof path, "%s", key);
		if (len)
			path[strlen(path) - 1] = 0;
		if (!strncmp(path, "@actions/", 9)) {
			owned = engine_game_actions(g, atoi(path + 9));
			got = owned, set = 1;
		} else if (!strcmp(path, "@result")) {
			struct rules_result r;
			if (engine_game_result(g, &r)) {
				json_t *w = json_array();
				for (int s = 0; s < g->seats; s++)
					if (r.winners >> s & 1)
						json_array_append_new(
						    w, json_integer(s));
				owned = json_pack("{s:o,s:s}", "winners", w,
				                  "reason", r.reason);
			} else {
				owned = json_null();
			}
			got = owned;
		} else if (!strncmp(path, "@seat/", 6)) {
			char *rest;
			int seat = (int)strtol(path + 6, &rest, 10);
			owned = engine_game_view(g, seat);
			got = at(owned, rest + 1);
		} else if (!strncmp(path, "@move/", 6)) {
			char *rest;
			int viewer = (int)strtol(path + 6, &rest, 10);
			size_t m = strtoul(rest + 1, NULL, 10);
			if (m >= 1 && m <= p->n)
				owned = engine_move_view(p->snap[m], g,
				                         p->actor[m - 1],
				                         p->act[m - 1], viewer);
			got = owned;
		} else {
			owned = engine_game_view(g, ENGINE_SPECTATOR);
			got = at(owned, path);
		}
		json_t *lenj = NULL;
		if (len && got)
			got = lenj =
			    json_integer((json_int_t)json_array_size(got));
		int eq = set ? same_set(got, v) : got && json_equal(got, v);
		if (!eq) {
			show(key, got, v);
			ok = 0;
		}
		json_decref(lenj);
		json_decref(owned);
	}
	json_decref(want);
	return ok;
}

static void run_case(const struct mcase *c)
{
	json_t *opt = c->options ? jq(c->options) : NULL;
	json_t *setup = c->setup ? jq(c->setup) : NULL;
	struct engine_game *g = NULL;
	struct rules_why why = {{0}, {0}};
	int rc = engine_game_new(&aa_rules, c->seats, opt, setup, 17, &g, &why);
	json_decref(opt), json_decref(setup);
	if (c->refused) {
		if (rc == 0 || strcmp(why.rule, c->refused))
			fprintf(stderr, "  rc %d rule '%s' (%s)\n", rc,
			        why.rule, why.detail);
		test_cond(c->name, rc != 0 && !strcmp(why.rule, c->refused) &&
		                       why.detail[0]);
		engine_game_free(g);
		return;
	}
	if (rc)
		fprintf(stderr, "  setup refused: %s %s\n", why.rule,
		        why.detail);
	test_cond(c->name, rc == 0);
	if (rc)
		return;
	struct engine_game *snap[32] = {engine_game_clone(g)};
	int actor[32];
	json_t *act[32];
	struct played p = {snap, actor, act, 0};
	int ok = 1;
	for (const char *const *s = c->steps; *s && ok; s++) {
		const char *t = *s;
		if (t[0] == '?') {
			ok = check_step(g, &p, t + 2);
			continue;
		}
		int refuse = t[0] == '!';
		int seat = t[refuse] - '0';
		json_t *a = jq(t + refuse + 2);
		struct engine_game *before = engine_game_clone(g);
		rc = engine_game_apply(g, seat, a, &why);
		if (refuse) {
			ok = rc != 0 &&
			     memcmp(before, g, engine_game_size(g->rules)) == 0;
			if (!ok)
				fprintf(stderr, "  not refused: %s\n", t);
			json_decref(a);
		} else if (rc) {
			fprintf(stderr, "  refused %s: %s %s\n", t, why.rule,
			        why.detail);
			ok = 0;
			json_decref(a);
		} else if (p.n < 31) {
			actor[p.n] = seat;
			act[p.n] = a;
			snap[++p.n] = engine_game_clone(g);
		} else {
			json_decref(a);
		}
		engine_game_free(before);
	}
	test_cond(c->name, ok);
	for (size_t m = 0; m < p.n; m++)
		json_decref(act[m]), engine_game_free(snap[m + 1]);
	engine_game_free(snap[0]);
	engine_game_free(g);
}

/* ---- §11.28–29: who leads and who picks ---- */

/* Plays `turns` turns of a normal deal (first listed play each time,
 * the face-up pick) and writes each turn's lead and picker. */
static int turn_order(int seats, int fp, int turns, int *leads, int *picks)
{
	char setup[64];
	snprintf(setup, sizeof setup, "{\"first_player\":%d}", fp);
	json_t *s = json_loads(setup, 0, NULL);
	struct engine_game *g = NULL;
	int rc = engine_game_new(&aa_rules, seats, NULL, s, 99, &g, NULL);
	json_decref(s);
	if (rc)
		return -1;
	int t = 0;
	while (t < turns && engine_game_to_act(g)) {
		const struct aa_state *st = (const struct aa_state *)g->state;
		int seat = __builtin_ctz(engine_game_to_act(g));
		if (st->phase == AA_PHASE_PLAY && st->played_mask == 0 &&
		    seat == st->active)
			leads[t] = seat;
		if (st->phase == AA_PHASE_RECRUIT)
			picks[t++] = seat;
		json_t *list = engine_game_actions(g, seat), *x;
		size_t i;
		json_t *pick = NULL;
		json_array_foreach(list, i, x) {
			const char *ty =
			    json_string_value(json_object_get(x, "type"));
			if (!pick && strcmp(ty, "discard") &&
			    strcmp(ty, "hand_over"))
				pick = x;
		}
		rc = pick ? engine_game_apply(g, seat, pick, NULL) : -1;
		json_decref(list);
		if (rc)
			break;
	}
	engine_game_free(g);
	return t == turns ? 0 : -1;
}

static void test_turn_order(void)
{
	static const struct {
		const char *name;
		int seats, fp, n;
		int leads[5], picks[5];
	} o[] = {
	    {"§11.28 4 seats, first_player 0: leads 0,1,2,3,0; picks 1,2,3,0,1",
	     4,
	     0,
	     5,
	     {0, 1, 2, 3, 0},
	     {1, 2, 3, 0, 1}},
	    {"§11.28 4 seats, first_player 1: leads 1,2,3,0",
	     4,
	     1,
	     4,
	     {1, 2, 3, 0},
	     {2, 3, 0, 1}},
	    {"§11.29 3 seats, first_player 0: leads 0,1,2,1,0; picks 1,2,1,0,1",
	     3,
	     0,
	     5,
	     {0, 1, 2, 1, 0},
	     {1, 2, 1, 0, 1}},
	    {"§11.29 3 seats, first_player 2: leads 2,1,0,1",
	     3,
	     2,
	     4,
	     {2, 1, 0, 1},
	     {1, 0, 1, 2}},
	    {"§9.3 3 seats, first_player 1: leads 1,2,1,0",
	     3,
	     1,
	     4,
	     {1, 2, 1, 0},
	     {2, 1, 0, 1}},
	};
	for (size_t i = 0; i < sizeof o / sizeof o[0]; i++) {
		int leads[5] = {-1, -1, -1, -1, -1},
		    picks[5] = {-1, -1, -1, -1, -1};
		int rc = turn_order(o[i].seats, o[i].fp, o[i].n, leads, picks);
		int ok = rc == 0;
		for (int t = 0; t < o[i].n; t++)
			ok &= leads[t] == o[i].leads[t] &&
			      picks[t] == o[i].picks[t];
		if (!ok)
			fprintf(stderr,
			        "  leads %d %d %d %d %d picks %d %d %d %d %d\n",
			        leads[0], leads[1], leads[2], leads[3],
			        leads[4], picks[0], picks[1], picks[2],
			        picks[3], picks[4]);
		test_cond(o[i].name, ok);
	}
}

/* ---- every mode: one seat acts, random games end ---- */

/* The options of each mode (rules §7). */
static const char *const opts[] = {"{}", "{\"mode\":\"advanced\"}"};

/* The lowest seat to act posts one of its listed actions at random: 0 if
 * accepted, -1 if nobody acts or it was refused.  *seat (if not NULL)
 * receives the seat, *played (if not NULL) a new reference to the action
 * (NULL when nobody acts). */
static int random_move(struct engine_game *g, struct rng *r, int *seat,
                       json_t **played)
{
	unsigned ta = engine_game_to_act(g);
	if (played)
		*played = NULL;
	if (!ta)
		return -1;
	int s = __builtin_ctz(ta);
	json_t *l = engine_game_actions(g, s);
	json_t *a = json_incref(
	    json_array_get(l, rng_below(r, (uint32_t)json_array_size(l))));
	json_decref(l);
	int rc = a && engine_game_apply(g, s, a, NULL) == 0 ? 0 : -1;
	if (seat)
		*seat = s;
	if (played)
		*played = a;
	else
		json_decref(a);
	return rc;
}

static void test_random_games(void)
{
	struct rng r;
	rng_seed(&r, 4242);
	for (int seats = 2; seats <= 4; seats++)
		for (int m = 0; m < 2; m++) {
			int ended = 0, one = 1, games = 60;
			json_t *o = json_loads(opts[m], 0, NULL);
			for (int i = 0; i < games; i++) {
				struct engine_game *g = NULL;
				if (engine_game_new(&aa_rules, seats, o, NULL,
				                    (uint64_t)i * 7 + 1, &g,
				                    NULL))
					break;
				for (int k = 0; k < 400; k++) {
					unsigned ta = engine_game_to_act(g);
					if (!ta)
						break;
					one &= __builtin_popcount(ta) == 1;
					one &=
					    random_move(g, &r, NULL, NULL) == 0;
				}
				struct rules_result res;
				ended += engine_game_result(g, &res);
				engine_game_free(g);
			}
			json_decref(o);
			char name[96];
			snprintf(
			    name, sizeof name,
			    "§7.2 %d seats %s: one seat acts, every listed "
			    "action is accepted, games end",
			    seats, opts[m]);
			test_cond(name, one && ended == games);
		}
}

/* ---- determinization (the bots' sampling) covers §8.9 and §9.9 ----
 *
 * Over random games of every mode and seat count, each seat's samples
 * keep its own hand and everything public (supply, rows, the
 * black-market discard, sizes) and redraw what it may not see: the
 * black-market deck's order (advanced) and a teammate's hand (3-4
 * seats), as an opponent's. */
static void test_determinize(void)
{
	struct rng r;
	rng_seed(&r, 777);
	for (int seats = 2; seats <= 4; seats++)
		for (int m = 0; m < 2; m++) {
			long samples = 0, kept = 0, bm_due = 0, bm_moved = 0;
			long mate_due = 0, mate_moved = 0, opp_moved = 0;
			json_t *o = json_loads(opts[m], 0, NULL);
			for (int i = 0; i < 20; i++) {
				struct engine_game *g = NULL;
				if (engine_game_new(&aa_rules, seats, o, NULL,
				                    (uint64_t)i * 13 + 5, &g,
				                    NULL))
					break;
				for (int k = 0; k < 60 && engine_game_to_act(g);
				     k++) {
					const struct aa_state *st =
					    (const struct aa_state *)g->state;
					for (int w = 0; w < seats; w++) {
						struct engine_game *c =
						    engine_game_clone(g);
						struct aa_state *d =
						    (struct aa_state *)c->state;
						aa_rules.determinize(d, w, &r);
						samples++;
						kept +=
						    !memcmp(&d->players[w],
						            &st->players[w],
						            sizeof st
						                ->players[w]) &&
						    !memcmp(
						        d->supply, st->supply,
						        sizeof st->supply) &&
						    !memcmp(d->bm_discard,
						            st->bm_discard,
						            sizeof st
						                ->bm_discard) &&
						    !memcmp(d->teams, st->teams,
						            sizeof st->teams) &&
						    d->bm_deck_size ==
						        st->bm_deck_size &&
						    d->deck_size ==
						        st->deck_size;
						if (st->bm_deck_size >= 2) {
							bm_due++;
							bm_moved += !!memcmp(
							    d->bm_deck,
							    st->bm_deck,
							    sizeof st->bm_deck);
						}
						int mate = w + 2 < seats ? w + 2
						           : w >= 2      ? w - 2
						                         : -1;
						if (mate >= 0 &&
						    st->players[mate]
						        .hand_size) {
							mate_due++;
							mate_moved += !!memcmp(
							    d->players[mate]
							        .hand,
							    st->players[mate]
							        .hand,
							    sizeof st
							        ->players[mate]
							        .hand);
						}
						opp_moved += !!memcmp(
						    d->players[(w + 1) % seats]
						        .hand,
						    st->players[(w + 1) % seats]
						        .hand,
						    sizeof st->players[0].hand);
						engine_game_free(c);
					}
					if (random_move(g, &r, NULL, NULL))
						break;
				}
				engine_game_free(g);
			}
			json_decref(o);
			char name[160];
			snprintf(name, sizeof name,
			         "§8.9 §9.9 determinize, %d seats %s: own hand "
			         "and public data kept (%ld samples)",
			         seats, opts[m], samples);
			test_cond(name, samples > 0 && kept == samples);
			snprintf(name, sizeof name,
			         "§8.9 §9.9 determinize, %d seats %s: an "
			         "opponent's hand redrawn (%ld of %ld)",
			         seats, opts[m], opp_moved, samples);
			test_cond(name, opp_moved * 2 > samples);
			if (m == 1) {
				snprintf(
				    name, sizeof name,
				    "§8.9 determinize, %d seats: the "
				    "black-market deck's order redrawn (%ld "
				    "of %ld)",
				    seats, bm_moved, bm_due);
				test_cond(name,
				          bm_due > 0 && bm_moved * 2 > bm_due);
			}
			if (seats > 2) {
				snprintf(name, sizeof name,
				         "§9.9 determinize, %d seats %s: a "
				         "teammate's hand redrawn like an "
				         "opponent's (%ld of %ld)",
				         seats, opts[m], mate_moved, mate_due);
				test_cond(name, mate_due > 0 &&
				                    mate_moved * 2 > mate_due);
			}
		}
}

/* ---- resigned seats of a team (the engine's rule, as for Quantum) ----
 *
 * A seat of a 3- or 4-seat game resigns at a random point: the game goes
 * on, every decision of that seat is played for it (never to act), the
 * game ends by the rules with a result, and the log replays to the same
 * bytes.  Three seats of four resigning end the game: the last seat wins
 * by resignation. */
static int play_out(struct engine_game *g, struct rng *r, int resign_seat,
                    int resign_at, json_t *log)
{
	int never = 1;
	for (int k = 0; k < 600 && engine_game_to_act(g); k++) {
		never &= !(engine_game_to_act(g) & g->resigned);
		int seat = resign_seat, rc;
		json_t *a;
		if (k == resign_at) {
			a = json_pack("{s:s}", "type", "resign");
			rc = engine_game_apply(g, seat, a, NULL);
		} else {
			rc = random_move(g, r, &seat, &a);
		}
		if (rc) {
			json_decref(a);
			return 0;
		}
		json_array_append_new(log, json_pack("[i,o]", seat, a));
	}
	return never;
}

static void test_resigned_teammates(void)
{
	struct rng r;
	rng_seed(&r, 99);
	for (int seats = 3; seats <= 4; seats++)
		for (int m = 0; m < 2; m++) {
			int ok = 1, ended = 0, games = 12;
			json_t *o = json_loads(opts[m], 0, NULL);
			for (int i = 0; i < games; i++) {
				struct engine_game *g = NULL, *again = NULL;
				uint64_t seed = (uint64_t)i * 5 + 3;
				json_t *log = json_array();
				ok &= engine_game_new(&aa_rules, seats, o, NULL,
				                      seed, &g, NULL) == 0 &&
				      engine_game_new(&aa_rules, seats, o, NULL,
				                      seed, &again, NULL) == 0;
				if (!ok) {
					engine_game_free(g);
					json_decref(log);
					break;
				}
				int who = (int)rng_below(&r, (uint32_t)seats);
				ok &= play_out(g, &r, who,
				               (int)rng_below(&r, 4), log);
				struct rules_result res;
				int over = engine_game_result(g, &res);
				ended += over &&
				         strcmp(res.reason, "resignation") &&
				         (g->resigned >> who & 1);
				size_t k;
				json_t *e;
				json_array_foreach(log, k, e)
					ok &= engine_game_apply(
					          again,
					          (int)json_integer_value(
					              json_array_get(e, 0)),
					          json_array_get(e, 1),
					          NULL) == 0;
				ok &= !memcmp(g, again,
				              engine_game_size(&aa_rules));
				json_decref(log);
				engine_game_free(g);
				engine_game_free(again);
			}
			json_decref(o);
			char name[160];
			snprintf(
			    name, sizeof name,
			    "engine: %d seats %s, a seat resigns: played "
			    "for, never to act, the game ends by the rules, "
			    "replays",
			    seats, opts[m]);
			test_cond(name, ok && ended == games);
		}
	/* 4 seats: three resign, the last seat wins by resignation. */
	struct engine_game *g = NULL;
	json_t *res_a = json_pack("{s:s}", "type", "resign");
	int ok = engine_game_new(&aa_rules, 4, NULL, NULL, 8, &g, NULL) == 0;
	for (int s = 1; ok && s < 4; s++)
		ok &= engine_game_apply(g, s, res_a, NULL) == 0;
	struct rules_result res;
	test_cond("engine: 4 seats, three resign: the last seat wins",
	          ok && engine_game_result(g, &res) && res.winners == 1u &&
	              !strcmp(res.reason, "resignation") &&
	              engine_game_to_act(g) == 0);
	json_decref(res_a);
	engine_game_free(g);
}

/* ---- §7: the rules version ---- */

static void test_version(void)
{
	test_cond("§7 rules version 3 replays stored version-1 and -2 games",
	          aa_rules.version == 3 && engine_rules_replays(&aa_rules, 1) &&
	              engine_rules_replays(&aa_rules, 2) &&
	              engine_rules_replays(&aa_rules, 3) &&
	              !engine_rules_replays(&aa_rules, 0) &&
	              !engine_rules_replays(&aa_rules, 4));
}

int main(void)
{
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		run_case(&cases[i]);
	test_turn_order();
	test_random_games();
	test_determinize();
	test_resigned_teammates();
	test_version();
	return test_report("aa-modes");
}
