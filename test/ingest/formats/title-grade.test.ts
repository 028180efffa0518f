// @module-tag sqlite-only: a format's parser: no store
/**
 * The title parser against sold-listing titles written the way sellers write them. Each row
 * is [title, expected]: `PSA 10` (grader and grade), `ungraded`, or `rejected`.
 */
import { describe, expect, it } from 'vitest';
import { gradeFromTitle } from '../../../src/ingest/formats/title-grade.js';

const TITLES: readonly (readonly [string, string])[] = [
  // Graded: the slab sold.
  ['Charizard 4/102 Base Set Holo Rare PSA 10 GEM MINT', 'PSA 10'],
  ['1999 Pokemon Base Set Charizard #4 PSA 9 MINT', 'PSA 9'],
  ['Pokemon Charizard Holo 4/102 Base Set Unlimited PSA 8 NM-MT', 'PSA 8'],
  ['PSA 10 Umbreon VMAX 215/203 Evolving Skies Alt Art', 'PSA 10'],
  ['Umbreon VMAX Alt Art 215/203 PSA10', 'PSA 10'],
  ['Pikachu Illustrator PSA 7', 'PSA 7'],
  ['PSA GEM MT 10 Lugia V Alt Art 186/195 Silver Tempest', 'PSA 10'],
  ['Moonbreon PSA-10 Evolving Skies', 'PSA 10'],
  ['Charizard ex 199/165 SIR 151 PSA 10 Gem Mint Pop 5000', 'PSA 10'],
  ['PSA 6 EX-MT Blastoise 2/102 Base Set Shadowless', 'PSA 6'],
  ['Venusaur 15/102 Base Set 1st Edition PSA 5 EX', 'PSA 5'],
  ['Mewtwo 10/102 Base Set Holo PSA 4 VG-EX', 'PSA 4'],
  ['Gyarados 6/102 PSA 3 VG', 'PSA 3'],
  ['Chansey Base Set Holo PSA 2 Good', 'PSA 2'],
  ['Ninetales Base Set PSA 1 Poor', 'PSA 1'],
  ['PSA 8.5 Charizard Base Set 2 4/130', 'PSA 8.5'],
  ['Rayquaza VMAX 218/203 PSA 10 Cert 81234567', 'PSA 10'],
  ['Giratina V Alt Art 186/196 Lost Origin - PSA 9', 'PSA 9'],
  ['PSA: 10 Pikachu VMAX Rainbow 188/185', 'PSA 10'],
  ['Mew ex 232/091 Paldean Fates PSA #10', 'PSA 10'],
  ['BGS 9.5 Charizard VMAX 074/073 Champions Path', 'BGS 9.5'],
  ['Charizard VMAX Rainbow Rare 074/073 BGS 9.5 GEM MINT (9.5, 10, 9.5, 9.5)', 'BGS 9.5'],
  ['BGS 10 Pristine Umbreon V Alt Art 189/203', 'BGS 10'],
  ['Beckett BGS 9 Mint Lugia Neo Genesis 9/111 Holo', 'BGS 9'],
  ['Beckett 9 Dark Charizard 4/82 Team Rocket', 'BGS 9'],
  ['Beckett 8.5 Typhlosion Neo Genesis', 'BGS 8.5'],
  ['BGS 10 Black Label Charizard Celebrations Classic Collection', 'BGS-BLACK 10'],
  ['BGS Black Label 10 Pikachu VMAX 044/185', 'BGS-BLACK 10'],
  ['BGS 8 NM-MT Shining Charizard Neo Destiny', 'BGS 8'],
  ['BGS 7.5 Near Mint+ Gengar Fossil Holo', 'BGS 7.5'],
  ['CGC 10 Gem Mint Charizard ex 223/197 Obsidian Flames', 'CGC 10'],
  ['CGC Pristine 10 Pikachu 25th Celebrations', 'CGC-PRISTINE 10'],
  ['CGC 10 Pristine Mew VMAX Alt Art 269/264', 'CGC-PRISTINE 10'],
  ['CGC Perfect 10 Mewtwo GX Shiny Vault', 'CGC-PERFECT 10'],
  ['CGC 9.5 Mint+ Espeon VMAX Alt Art', 'CGC 9.5'],
  ['CGC 9 Mint Blastoise ex 200/165 151', 'CGC 9'],
  ['Charizard Base Set 4/102 CGC 8.5 NM/Mint+', 'CGC 8.5'],
  ['SGC 10 Gem Mint Charizard 4/102', 'SGC 10'],
  ['SGC 10 Pristine Lugia Aquapolis Holo', 'SGC-PRISTINE 10'],
  ['SGC 9.5 Mint+ Rayquaza Gold Star', 'SGC 9.5'],
  ['SGC 9 Pikachu Yellow Cheeks Base Set', 'SGC 9'],
  ['SGC 8 NM-MT Mewtwo Base Set', 'SGC 8'],
  ['TAG 10 Charizard ex SIR 199/165', 'TAG 10'],
  ['ACE 10 Gem Mint Pikachu Crown Zenith Gold', 'ACE 10'],
  ['HGA 9.5 Umbreon Gold Star POP Series 5', 'HGA 9.5'],
  ['GMA 9 Mint Charizard Base Set 2', 'GMA 9'],
  ['BVG 8 Pikachu Base Set', 'BVG 8'],
  ['Charizard PSA 10 GEM MINT 1999 Pokemon Game', 'PSA 10'],
  ['Pokemon Japanese Charizard Holo Base PSA 9 Mint', 'PSA 9'],
  ['Pokémon Charizard Holo 1st Edition Shadowless PSA 7 NM', 'PSA 7'],
  ['PSA 10 & sealed sleeve Gengar VMAX 271/264 Fusion Strike', 'PSA 10'],
  ['2023 Pokemon 151 Mew ex #205 PSA 10', 'PSA 10'],
  ['Pikachu & Zekrom GX Tag Team 162/181 PSA 9', 'PSA 9'],
  ['Computer Search Ace Spec 137/149 Boundaries Crossed PSA 8', 'PSA 8'],
  ['Team Up Latias & Latios GX 170/181 Tag Team PSA 10', 'PSA 10'],
  ['psa 10 charizard v 079/073 champions path', 'PSA 10'],
  ["Blaine's Charizard Gym Challenge 1st Edition BGS 8.5", 'BGS 8.5'],
  ['Lugia V Alternate Art 186/195 PSA 10 (Gem Mint) Silver Tempest', 'PSA 10'],
  ['PSA 10 Magikarp 203/193 Paldea Evolved Illustration Rare', 'PSA 10'],
  ['Charizard Ex 125/197 Obsidian Flames Double Rare - CGC 10 Gem Mint', 'CGC 10'],

  // Ungraded: a raw card, however the title dresses it.
  ['Charizard 4/102 Base Set Holo Rare NM', 'ungraded'],
  ['Umbreon VMAX 215/203 Alt Art Evolving Skies Near Mint', 'ungraded'],
  ['Charizard ex 199/165 151 SIR Pack Fresh', 'ungraded'],
  ['Charizard VMAX 074/073 PSA 10 Ready!', 'ungraded'],
  ['Moonbreon PSA 10 READY pack fresh centered', 'ungraded'],
  ['Lugia V Alt Art 186/195 - PSA 10 Candidate', 'ungraded'],
  ['Pikachu VMAX 188/185 PSA 10 candidate?? Mint', 'ungraded'],
  ['Charizard ex 223/197 potential PSA 10', 'ungraded'],
  ['Mew ex 232/091 Possible PSA 10 Perfect Centering', 'ungraded'],
  ['Giratina V 186/196 PSA 10 Worthy', 'ungraded'],
  ['Rayquaza VMAX 218/203 PSA 10 Quality Gem', 'ungraded'],
  ['Charizard Base Set NOT PSA Holo Unlimited', 'ungraded'],
  ['Blastoise Base Set 2/102 not graded NM', 'ungraded'],
  ['Umbreon Gold Star raw ungraded', 'ungraded'],
  ['Gengar VMAX 271/264 RAW mint', 'ungraded'],
  ['Charizard 4/102 You Grade It!', 'ungraded'],
  ['Pikachu Illustrator reprint? no, look: you grade', 'rejected'],
  ['Lugia Neo Genesis Holo - grade it yourself - NM', 'ungraded'],
  ['Espeon VMAX Alt Art PSA 10?', 'ungraded'],
  ['Mewtwo GX Shiny - gem mint, ready for PSA', 'ungraded'],
  ['Charizard ex 199/165 Ready for grading', 'ungraded'],
  ['Pikachu Promo Pre-graded 10 gem', 'ungraded'],
  ['Base Set Charizard Holo - Could Be PSA 9', 'ungraded'],
  ['No PSA Charizard, raw card, near mint', 'ungraded'],
  ['Non-Graded Mew VMAX Alt Art', 'ungraded'],
  ['Rawst Berry 164/185 Vivid Voltage', 'ungraded'],
  ['Lotad 027/189 Astral Radiance Reverse Holo', 'ungraded'],
  ['Charizard EX 12/106 Flashfire Holo', 'ungraded'],
  ['XY Evolutions Charizard 11/108 Holo', 'ungraded'],
  ['Computer Search Ace Spec 137/149', 'ungraded'],
  ['Pikachu & Zekrom GX Tag Team 33/181', 'ungraded'],
  ['1x Charizard ex 223/197 Obsidian Flames', 'ungraded'],
  ['Charizard 9/10 condition base set holo', 'ungraded'],
  ['Gem Mint Umbreon VMAX pack fresh', 'ungraded'],
  ['PSA 9 Mint Mew ex 151 ready to ship', 'PSA 9'],

  // Graders outside the four, known or not: graded under their name, never ungraded.
  ['Ninetales Holo ARS 10 GEM MINT', 'ARS 10'],
  ['Charizard PCG 7.5', 'PCG 7.5'],
  ['Umbreon VMAX Alt Art PGS 9.5', 'PGS 9.5'],
  ['Lugia Aquapolis Holo CGA 9 MINT', 'CGA 9'],
  ['AGS 10 GEM MINT Pikachu Van Gogh', 'AGS 10'],
  ['Charizard Base Set XYZ 8.5', 'XYZ 8.5'],
  ['Leafeon ex SAR 200/187 (TAG 10, not PSA)', 'TAG 10'],
  ['Muk GX TAG grading 9 61/214', 'TAG 9'],
  ['Zapdos HOLO 15 PSA GRADED MINT 9', 'PSA 9'],
  ['CGC Grade 9.5 Espeon VMAX', 'CGC 9.5'],
  // Not graders: set codes, card kinds and hit points before a number stay raw.
  ['Pikachu SV2a 173/165 Japanese', 'ungraded'],
  ['Charizard ex SWSH 4.5 Shining Fates', 'ungraded'],
  ['Mew ex SV 3.5 151 Gold', 'ungraded'],
  ['Charizard SM115 Promo', 'ungraded'],
  ['Pokemon Base 4 Charizard Holo', 'ungraded'],
  ['CHARIZARD BASE SET 2 4/130 HOLO MINT', 'ungraded'],
  ['Pokemon TCG 2 Team Rocket Dark Charizard', 'ungraded'],
  ['Charizard 120 HP Base Set Holo', 'ungraded'],
  ['Charizard HP 120 Base Set', 'ungraded'],

  // Raw in a played condition: stored as RAW-LP ... , never as near mint.
  ['Charizard Base Set Holo 4/102 - LP', 'RAW-LP'],
  ['Blastoise Base Set Holo (HP)', 'RAW-HP'],
  ['Venusaur [MP] Base Set Holo', 'RAW-MP'],
  ['Dark Charizard Team Rocket damaged', 'RAW-DMG'],
  ['Lugia Neo Genesis Holo creased', 'RAW-DMG'],
  ['Pikachu Illustrator Lightly Played', 'RAW-LP'],
  ['Gengar Fossil Holo heavily played', 'RAW-HP'],
  ['Mewtwo Base Set NM/LP', 'RAW-LP'],
  ['Charizard Gym Heroes played condition', 'RAW-MP'],
  ['Umbreon Gold Star raw LP', 'RAW-LP'],
  ['Charizard Base Set Holo NM no creases', 'ungraded'],
  ['Charizard Base Set Holo crease free', 'ungraded'],
  ['Charizard never played pack fresh', 'ungraded'],
  ['Mewtwo PSA 8 NM-MT', 'PSA 8'],
  ['Charizard PSA 5 EX creased', 'PSA 5'],

  // Rejected: not one genuine card, or a grade that cannot be told.
  ['8x 1996 Pokemon Japanese Charizard No Rarity PSA 1-8', 'rejected'],
  ['Charizard Base Set PSA 8-10', 'rejected'],
  ['Pikachu Promo x8', 'rejected'],
  ['Eeveelution bundle Evolving Skies', 'rejected'],
  ['Charizard ex 2 cards 151', 'rejected'],
  ['TAG Magikarp Holo 006/032 CLK Classic Collection GEM MINT', 'rejected'],
  ['Ivysaur 002/032 Classic CLF Japanese Pokemon Card Graded', 'rejected'],
  ['Charizard XYZ 10 Gem Mint and PSA 9', 'rejected'],
  ['Lot of 10 Pokemon Cards Holo Rares', 'rejected'],
  ['Charizard lot PSA 9 PSA 8 x3', 'rejected'],
  ['Pokemon bulk 100 commons', 'rejected'],
  ['Charizard ex 223/197 x4 Playset', 'rejected'],
  ['3x Umbreon V 094/203 Evolving Skies', 'rejected'],
  ['Umbreon VMAX Alt Art PROXY custom card', 'rejected'],
  ['Charizard Base Set Custom Art Card Holo', 'rejected'],
  ['Pikachu Illustrator Reprint Promo', 'rejected'],
  ['Charizard Gold Metal Card Orica Fan Art', 'rejected'],
  ['Replica Charizard 1st Edition Shadowless', 'rejected'],
  ['PSA 10 Empty Slab Case Only Charizard Label', 'rejected'],
  ['Pokemon TCG Live Code Card 151 Booster', 'rejected'],
  ['PSA 10 Charizard and BGS 9.5 Blastoise pair', 'rejected'],
  ['Scarlet & Violet Booster Bundle Sealed', 'ungraded'], // one sealed product, named "Booster Bundle"
  ['PSA 9 Charizard + BGS 9.5 Venusaur', 'rejected'],
  ['Charizard PSA slab Base Set', 'rejected'],
  ['PSA Authentic Charizard Base Set Trimmed', 'rejected'],
  ['PSA/DNA Autographed Pikachu Promo', 'rejected'],
  ['Charizard Base Set CGC graded', 'rejected'],
  ['Umbreon VMAX Gem Mint 10 Alt Art', 'rejected'],
  ['Pick your card - Evolving Skies Alt Arts', 'rejected'],
  ['Pokemon Mystery Graded Slab PSA 10 pack', 'rejected'],
  ['Set of 4 Eeveelution V Alt Arts PSA 10', 'rejected'],
];

function describeGrade(title: string): string {
  const result = gradeFromTitle(title);
  if (result.kind === 'graded') return `${result.grader} ${result.grade}`;
  if (result.kind === 'played') return `RAW-${result.condition}`;
  return result.kind === 'ungraded' ? 'ungraded' : 'rejected';
}

describe('gradeFromTitle', () => {
  it('is tested on at least 100 titles', () => {
    expect(TITLES.length).toBeGreaterThanOrEqual(100);
  });

  it.each(TITLES)('reads %j as %s', (title, expected) => {
    expect(describeGrade(title)).toBe(expected);
  });

  it('says why it rejects a title', () => {
    expect(gradeFromTitle('Lot of 10 Pokemon Cards')).toEqual({
      kind: 'not one card',
      reason: 'the title says "Lot": a lot, not a sale of one card',
    });
    expect(gradeFromTitle('PSA 9 Charizard + BGS 9.5 Venusaur')).toEqual({
      kind: 'unclear',
      reason: 'the title names 2 grades (PSA 9, BGS 9.5): which one sold cannot be told',
    });
    expect(gradeFromTitle('Charizard PSA slab')).toEqual({
      kind: 'unclear',
      reason: 'the title names PSA but no grade from 1 to 10',
    });
    expect(gradeFromTitle('Charizard No Rarity PSA 1-8')).toEqual({
      kind: 'not one card',
      reason: 'the title says "PSA 1-8": a range of grades, several slabs, not a sale of one card',
    });
    expect(gradeFromTitle('Blastoise Base Set (HP)')).toEqual({
      kind: 'played',
      condition: 'HP',
      words: 'HP',
    });
  });

  it('reads a range written with an en dash as sellers type it (the pattern spells the dash as an escape)', () => {
    expect(gradeFromTitle('Charizard No Rarity PSA 7\u20139')).toEqual({
      kind: 'not one card',
      reason: 'the title says "PSA 7\u20139": a range of grades, several slabs, not a sale of one card',
    });
  });
});
