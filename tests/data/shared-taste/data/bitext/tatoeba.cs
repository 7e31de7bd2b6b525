Aby byl svět lepším místem, musí se udělat radikální změny.
Abych pravdu řekl, Toma nemám rád.
Abych řekl pravdu, docela jsem na naše setkání zapomněl.
Abych řekl pravdu, úplně jsem na tvé otázky zapomněl
Abys dostal nový průkaz, musíš odevzdat ten starý.
Aby se na Zemi brzy manifestoval Zlatý věk, měli bychom si ho představovat jako realitu.
Abyste překonali vaše problémy, musíte jim občas čelit.
Abyste věřili v Boha, nemusíte být pobožní.
Abyste zhubli, jezte méně.
Ach tak.
Ach, ten vlak má zpoždění.
A co tohle?
Ač se kdysi věřilo na souvislost mezi syfilidou a uměleckým géniem, doufal bych, že většina moderních umělců a spisovatelů je dost rozumná na to, aby se vyhýbala nakažení jen kvůli oné maličké šanci, že by jim neurosyfilidní demence pomohla zlepšit kvalitu tvorby.
Afrika je kontinent, Grónsko ne.
Agrese byla vyvolaná bezduvodnymi urážkami.
Agresivní řidiči, kteří nedodržují bezpečnou vzdálenost, jsou nebezpečím pro širokou veřejnost. Nedodržování bezpečné vzdálenosti je druh agrese za volantem.
Aha.
A historie se navždy změnila.
Ahoj!
Ahoj? Jste stále ještě tady?
Ahoj, to je Mike.
Ahoj všichni!
A jak se daří tvé ženě?
Akorát jsem řekl, že potřebuji na vzduch.
Aktualizoval bys moje programy?
Aktualizoval jsem své programové vybavení.
Aktualizoval jsem svůj profil.
Aktualizuj moje programové vybavení.
Aktualizujte moje programové vybavení.
Aktualizujte své programové vybavení.
Ale co když řekne ne?
Ale já byl opatrný.
Ale já vám rozumím docela dobře.
Ale jdi, nechtěl jsem ti ublížit.
Ále, nasrat.
Ale neměla jsem strach.
Alespoň nebyl nikdo zraněn.
Ale tobě se to líbí!
"Ale to je pravda!" trval na svém Dima. "Nedovolí mě koupit si ten oblek pokud jim nedám dalších 99 kopějek. Můžete mi poslat nějaké peníze?"
Alkohol a tvrdé drogy ničí lidské životy.
Alkohol neřeší žádné problémy.
Alžírsko má nového prezidenta.
Alžírsko prodává ropu a plyn.
Američané překvapili Němce.
Amerika vládne světu.
Andělé mají dvě křídla, ďábel má ocas.
Anglicky se mluví všude.
Angličtina je pro Holanďany snadný jazyk k učení.
Angličtina se líbí jim.
Angličtina se používá na celém světě.
Ani já bych to nekupoval.
Ani jedna z těchto knih není zajímavá.
Ani jsem tam nebyl.
Ani moje žena, ani moje děti o tom nevěděly.
Ani na chvíli toho nelituji.
Ani nevím, jak je to možné.
Ani on a ani jeho žena nebyli přítomni.
Ani radost ani smutek nejsou věčné.
Ani radost ani smutek netrvají věčně.
Ani se nejmenuji Tom.
Ani se neomluvil.
Ani se nepokoušej to popřít.
Ani se neznáme.
Ani se tě nedotknou.
Ani se to nepokusím vyslovit.
Ani Tom, ani Mary nemá řidičský průkaz.
Ani trochu toho nelituju.
Ani trochu to nebolelo.
Ani v zimě nemáme moc sněhu.
Anna má moc ráda čokoládu.
Ann ráda píše básně.
Ano, ale nemusíš zůstat do konce.
Ano, bohužel.
Ano, jmenuji se Karen Smith.
Ano, mléko je velmi dobré.
Ano, musíš.
Ano, obě slova mají tentýž význam.
Anorexie stále ovládala její život.
Ano, samozřejmě.
Antibiotika ničí bakterie, ale neúčinkují na viry.
A pak se všichni postavili a zatleskali.
Arabština je těžká!
Arménština je jeden z nejtěžších jazyků na učení.
Arogantní lidé nikdy nemotivují ostatní lidi.
Arogantní lidi urazí negativní odezva.
Asi ale tušíš, co se stane.
Asi by bylo lepší, kdybych to byl neudělal.
Asi bych měl jít domů.
Asi bych měl jít domů.
Asi bys raději měl jít se mnou.
Asi bys to neměl jíst.
Asi jsem tak trochu vlk samotář.
Asi máš těžká zavazadla.
Asi se zbláznil.
Asi ti budu muset věřit.
Asi tuším, co se mohlo stát.
Asi za dva týdny.
Aspoň mám kde přespat.
Astrologii mám rád.
A teď jsem v průšvihu.
Athéna je bohyně moudrosti.
Ať jsme hledali jak jsme hledali, najít jsme to nemohli.
Atmosféra se hlavně skládá z dusíku a kyslíku.
Atomové číslo železa je 26.
Atomy se skládají z protonů, elektronů a neutronů.
Ať se děje cokoliv, neotvírejte ty dveře.
Ať se ti tvé sny vyplní!
Ať se z toho poučíš.
Ať si dělá, co chce.
Ať Toma varujete jakkoliv, je to marná snaha.
A ty?
Ať žije Sovětský svaz!
Austrálii pustoší nejhorší přírodní požáry za desetiletí.
Auto budoucnosti nepotřebuje řidiče.
Autobus je prázdný.
Autobus přijel včas.
Autobusy jezdí každých deset minut.
Autobusy odjely jeden za druhým.
Auto zastavilo a Tom vystoupil.
Autu praskla pneumatika.
A Vy?
Až do Tomova příchodu to byla dobrá párty.
Až se dostaneme domů, bude už tma.
Až sem přijdeš, budu už spát.
Až sem Tom přijde, budu už pryč.
Až se najím, tak si zdřímnu.
Až se vrátíš, budu tady.
Až síla Světla ovládne Zemi, už nebude utrpení.
Až uvidíš Mary, dej jí tenhle lístek.
Až vyrosteš, Tom už možná nebude naživu.
Až vyrostu, chci být jako on.
Babi, řekneš mi ještě jednu pohádku?
Bacha, kachna!
Balení tohoto výrobku je poškozeno.
Bál jsem se, že bych to neuměl udělat správně.
Bál jsem se, že mě Tom zabije.
Bál jsem se, že mě Tom zabije.
Bály se tě.
Bangkok je hlavní město Thajska.
Banka ještě není otevřená.
Bankéři ovládají svět.
Barcelona je hlavní město Katalánska a druhé největší město ve Španělsku.
Barcelona je ráj Katalánské kuchyně.
Barmane, dám si něco k pití.
Barva fuksie je pojmenována po květině.
Barva se loupe z oprýskané zdi.
Barva této kravaty s tvým oblekem neladí.
Baterie dálkového ovladače je vybitá.
Baterie u auta se vybila.
Bavili jsme se o několika možnostech.
Bavili se spolu jako staří kámoši.
Baví mě číst knížky v angličtině.
Baví mě matematika.
Baví tě studovat?
Beduíni žijí v poušti.
Běhám rychleji, než Tom.
Běháš každý den?
Během posledních 36 hodin Tom nic nejedl.
Během zkoušky není dovoleno používat slovník.
Běh událostí se zrychluje.
Bělehrad je hlavní město Srbska.
Benzín je hořlavější než mazut.
Benzín už není levné palivo.
Bere si ho pro peníze?
Bereš to moc vážně.
Berou nám naši svobodu.
Ber to jen jako dobrou radu. Nic ti nenařizuji.
Betty by mohla zpívat lépe.
Betty zabila svou matku.
Bezbarvé zelené nápady spí šíleně.
Bezcitnost u mladých lidí je podporována násilnými filmy a počítačovými hrami.
Bezdomovci nemají peníze, ale jsou neradi, když se jim to připomíná.
Běžel, co nejrychleji mohl.
Běželi jsme, abychom dohnali Toma.
Běžel jsi tak rychle, jak to šlo.
Beze mě to udělat nezvládneš.
Běžíme k ohni.
Běžím rychleji, než ty.
Běž na druhou stranu.
Běžně se má za to, že všechny pohádky jsou příběhy z lidové tradice předávané vypravěči z jedné generace na druhou od počátku dějin.
Běž, než bude příliš pozdě.
Bez odchýlení od normy nelze dosáhnout pokroku.
Bezpečně můžete bruslit na této straně jezera.
Bezpodmínečně sem zítra přijď.
Běž rychle, nebo ti ten autobus ujede.
Běž se obléct do pyžama.
Běž si líbat někoho jiného.
Bez souhlasu Toma bych nic neudělal.
Bez svítilny nezvládneš vidět nic.
Běžte Toma pozdravit.
Běžte Toma pozdravit.
Bez Toma se budu cítit opuštěná.
Bez Toma se budu cítit osamělý.
Bez Tomova souhlasu bych to byl neudělal.
Bez tvé pomoci bych to nebyl schopen udělat.
Bez tvých rad se obejdu.
Bez váhání jsem splnil jeho žádost.
Bez váhání zalhal.
Bez vaší pomoci to nezvládnu.
Bez vody není možno žít.
Blahopřeji všem. Konečně jsme to zvládli!
Blbec!
Blbost.
Blíží se další bouřka.
Blýská se.
Bob hledal někoho, s kým by bylo možné si promluvit.
Bob vaří snídani ráno.
Bohatí někdy nad chudými ohrnují nos.
Bohatí se někdy dívají na chudé s patra.
Bohatství přichází k těm, co se činní, nikoliv k těm, co jen dávají činům volný průchod.
Bohužel jí to nemohu říct.
Bohužel mám špatné zprávy.
Bohužel, mnoho lidí zemřelo.
Bohužel, nebyl v tom moc dobrý.
Bohužel nedokážu ihned odpovědět.
Bohužel ne.
Bohužel nemohu najít baterii ke svému fotoaparátu.
Bohužel vás musím zklamat.
Bojím se Alláha.
Bojím se jít ve tmě.
Bojím se lídí i sebe.
Bojím se řídit auto na jednosměrných silnicích.
Bojím se smrti.
Bojím se toho.
Bojím se výsledků.
Bojím se, že o tebe přijdu.
Bojím se, že se něco strašně moc pokazilo.
Bojím se, že tady budu vězet věčně.
Bojí se létat letadlem.
Bojí se plavat.
Bojí se tě.
Bojíš se mě?
Bojíš se něčeho?
Bojíš se smrti?
Bojíš se Toma, co?
Bojíš se, že tě vyhodí z práce?
Bojíte se ho?
Bojíte se jí?
Bojíte se něčeho?
Bojíte se ticha?
Bojovali za svobodu.
Bojujeme proti veškerým drogám.
Bolelo jí celé tělo.
Bolest byla strašná.
Bolest nakonec přestala.
Bolí mě noha.
Bolí mě pravá ruka.
Bolí mě pravé rameno.
Bolí mě srdce.
Bolí mě v krku a teče mi z nosu.
Bolí tě žaludek?
Boty jaké barvy sis koupil?
Boty máš pod postelí.
Bouře opět vyvrhla na pláž mnoho naplaveného dřeva.
Bozi se na Toma rozzlobili.
Braň ten kostel.
Brazílie je velká země.
Brian šel do školy s Kate.
Brusel je hlavní město Belgie.
Bruslí.
Brzo si na to zvykneš.
Brzy bude jaro.
Brzy budeme hotovi.
Brzy bude připravený.
Brzy bude říjen.
Brzy bude umět plavat.
Brzy poznáš pravdu.
Brzy se dozvíš pravdu.
Brzy se stane otcem.
Brzy si na to zvykneš.
Bubeník je také hlavní zpěvák té skupiny.
Budeme bydlet spolu.
Budeme doufat, že se k tomu dostaneme.
Budeme jíst, jakmile tohle doděláme.
Budeme mluvit rusky?
Budeme muset návštěvu Toma odložit.
Budeme na tom pracovat zítra.
Budeme prodávat náš dům.
Budeme pronajímat naši zahradu.
Budeme se muset vypořádat s každou překážkou, která se nám postaví do cesty.
Budeme si muset brzy najít nové místo.
Budeme stavět zeď.
Budeme z toho mít potíže?
Bude mi trvat dlouho, než to dokončím.
Bude podáváno malé občerstvení.
Bude pracovat.
„Bude pršet?“ — „Doufám, že ne.“
Budeš mi chybět, až odejdeš.
Budeš mi chybět.
Budeš mít řeč s Tomem?
Budeš muset počkat.
Budeš potřebovat klíč.
Budeš se dnes večer učit?
Budeš slavná.
Budeš slavný.
Budeš šťastná.
Budeš šťastný.
Budeš tam muset asi hodinu čekat.
Budeš tam?
Budeš Tomovi dělat tlumočníka?
Budeš Tomovi překládat?
Budeš zaostávat, jestliže budeš stále chybět na hodinách.
Budeš zítra ráno ve své kanceláři?
Budete mi chybět.
Budete mít minutu na obhajobu svého názoru.
Budete si muset na výsledky počkat do zítra.
Bude těžké dostat ji zpět.
Bude to buď Tom a nebo vy.
Bude to dlouhá cesta.
Bude to nějakou dobu trvat.
Bude to někdo překládat?
Bude to někdo překládat?
Bude to Tom, nebo já?
Bude tu vyšetřování.
Bude velké odhalení.
Bude žárlit.
Bude zítra pršet?
Budhismus je mírumilovné náboženství. Staňte se budhisty.
Budit jste mne nemuseli.
Buď ke všem zdvořilý.
Buďme optimisté.
Buďme šťastni.
Buďme všichni přáteli.
Buď na to dítě opatrný.
Buď opatrný!
Budoucnost bývala lepší.
Budou spokojeni.
Budou zlikvidováni.
Budova je vysoká sedm pater.
Buď prosím opatrná, abys nerozbila tu vázu.
Buď tak laskav, a odejdi.
Buďte tak laskav a při odchodu zavřete dveře.
Buďte vždy ve střehu.
Budu čekat na vás oba.
Budu číst tu knihu.
Budu dělat domácí úkol.
Budu jíst pomeranč.
Budu k vám upřímný.
Budu nosit košili.
Budu pít čaj.
Budu pokračovat ve své práci.
Budu pokračovat v opravování svých chyb.
Budu potřebovat podrobnosti.
Budu pracovat na zahradě celé dopoledne.
Budu rád, když mi pomůžeš.
Budu se koupat.
Budu se ti ještě muset ozvat.
Budu se Tomovi vyhýbat.
Budu se učit latinu.
Budu se vám ještě muset ozvat.
Budu svědčit.
Budu tatínkem.
Budu ti držet palce.
Budu to demonstrovat pomocí konkrétních příkladů.
Budu Toma bránit.
Budu Toma bránit.
Budu Tomovi ten film vyprávět, až ho zhlédnu.
Budu Tomovi všechno vyprávět, až se s ním uvidím.
Budu Tomovi všechno vyprávět, až se s ním uvidím.
Budu to muset udělat bez přípravy.
Budu to vůbec schopen udělat?
Budu u sebe v pokoji.
Budu v Bostonu celý den.
Budu velmi opatrný.
Budu velmi šťastný, když budeš moci přijít.
Budu velmi zklamán, jestli se to stane.
Budu v podkroví.
Budu zase překládat filmy.
Budu zvracet.
Buď velmi stručný, prosím.
Buď zdráv, Ceasare!
Bůh existuje, ale zapomněl heslo.
Bůh je kruh, jehož obvodem je přímka.
Bůh mě miluje.
Bůh ochraňuj Ukrajinu!
Bůh to učinil.
Bunkr vás před viry neochrání.
Burdž Chalífa je v současnosti nejvyšší mrakodrap na světě.
Bydlela tam sama.
Bydlíme blízko pošty.
Bydlíme blízko řeky.
Bydlíme tady.
Bydlíme v bytě hned přes ulici.
Bydlím na druhé straně řeky.
Bydlím poblíž.
Bydlím ve městě.
Bydlím v Turecku.
Bydlíš poblíž?
Bydlíte tu rádi?
Bydlíte ve velkém domě?
Bydlívala tam ohavná příšera.
Bydlíval jsem poblíž parku.
Byla by škoda, kdyby se takové slovo ztratilo.
Byla docela tma, když jsem dorazil domů.
Byla do toho zapojena policie?¨
Byla jsem velmi vzrušená.
Byla naplánovaná zádušní mše za oběti války.
Byla překvapena tím, co viděla.
Byla řada na mně.
Byla sama ve tmě.
Byla taková zima, že to jezero zamrzlo.
Byla tak smutná, že s nikým nechtěla mluvit.
Byla to dlouhá a náročná noc.
Byla to dobrá párty, dokud nepřišel Tom.
Byla to dobrá volba.
Byla to jediná věc, která chyběla.
Byla to jeho poslední večeře.
Byla to jenom nehoda.
Byla to jenom pusa.
Byla to lež.
Byla to těžká zkouška.
"Byla to tvoje přítelkyně?" "Ne. Byla to moje žena."
Byla to tvoje volba.
Byla to vražda, nebo sebevražda?
Byla úplná tma.
Byla vám už někdy diagnostikovaná epilepsie?
Byla v mém pokoji.
Byla v žalostném stavu.
Byl bych jel na hory, kdybych byl měl peníze.
Byl bych mohl plakat.
Byl bych radši, kdyby Tom byl nepřišel.
Byl bych radši, kdyby Tom nepřišel.
Byl bych to dopověděl, kdybys mě nepřerušil.
Byl bych to takhle neřešil.
Byl bych vám velmi vděčný, kdybyste mi zítra pomohli.
Byl bys to mohl udělat.
Byl celý modrý zimou.
Byl dopaden policií o tři dny později, když se snažil nastoupit do trajektu do Francie s kufříkem obsahujícím padesát tisíc liber.
Byli bychom rádi, kdyby Tom odešel.
Byli bychom rádi, kdyby Tom odešel.
Byli jsem nepřátelé.
Byli jsme pět dní bez elektřiny.
Byli jsme před všemi ostatními.
Byli jsme unaveni a hladoví.
Byli jsme ve výtahu uvězněni dvě hodiny.
Byli jsme v obýváku, když jsme slyšeli ten výstřel.
Byli jste milovaní tímhle člověkem kvůli vašemu bohatství.
Byli jste někdy zamilovaní do svého učitele na základní škole?
Byli jste si toho vědomi?
Byli jste už někdy zhypnotizováni?
Byli lepší, než jsem očekával.
Byli překvapeni tím, co viděli.
Byli přesvědčeni, že Tom je chce zabít.
Byli s výsledkem spokojeni.
Byli to moji rodiče, kdo mě naučil jak se to dělá.
Byli to takříkajíc oběti války.
Byli unaveni.
Byli ve sprše.
Byl jedním z nich.
Byl jsem dlouho pryč.
Byl jsem hned za Tomem.
Byl jsem jaksi překvapen, že jsem tam viděl Toma.
Byl jsem jí zklamán.
Byl jsem naprosto ohromen.
Byl jsem opravdu zvědavý.
Byl jsem požádán o pomoc.
Byl jsem požádán vám předat zprávu.
Byl jsem pozván.
Byl jsem překvapen Tomovou upřímností.
Byl jsem připraven na všechno.
Byl jsem rychlejší.
Byl jsem tam celý den.
Byl jsem tam několikrát.
Byl jsem tam také pozván.
Byl jsem tam včera večer.
Byl jsem to ale idiot.
Byl jsem u doktora.
Byl jsem unavený a spal jsem.
Byl jsem usvědčen.
Byl jsem velice překvapen.
Byl jsem velmi překvapen, když mi Tom řekl, že Mary odešla z Bostonu.
Byl jsem velmi vzrušený.
Byl jsem ve svém snu motýlem.
Byl jsem v lese.
Byl jsem zalitý potem.
Byl jsem zaskočený jejich nevraživostí vůči nám.
Byl jsi tam také?
Byl jsi tam také?
Byl jsi už někdy v zahraničí?
Bylo by možné zarezervovat taxi na zítra ráno?
Bylo by skvělé, kdybys to pro mě udělal.
Bylo by to rasistické.
Bylo jí to jedno.
Bylo mi řečeno, že bych měl být pozornější.
Bylo mu teprve čtrnáct.
Bylo radostí strávit večer s tak chytrou, vtipnou a krásnou dívkou, jako jsi ty.
Bylo skoro poledne, když se Tom konečně vzbudil.
Bylo štěstí, že jsi tam byl a pomohl mi.
Bylo to hrozivé krupobití.
Bylo to jako nějaké pohádka.
Bylo to mimo správnou pozici.
Bylo to mistrovské dílo, o kterém často mluvili.
Bylo to náročné.
Bylo to na soutěžní úrovni.
Bylo to od Toma velmi hezké, že na nás počkal.
Bylo to otázkou času.
Bylo to tak dávno, že už si na to pořádně nevzpomínám.
Bylo to velmi dobré.
Bylo to velmi psychedelické.
Bylo to vyrobeno ručně.
Byl pánem situace.
Byl potrestán za své zločiny.
Byl překvapen, když slyšel tu zprávu.
Byl příliš unaven, aby šel dál.
Byl rozdrcen k smrti.
Byl sexuálně obtěžován starším mužem v autobuse.
Byl si jist, že ty zprávy se mu nebudou líbit.
Byl sveden Marií.
Byl tak starý, že sotva vyšel schody.
Byl tak unavený, že usnul v křesle aniž by ten film vůbec dokoukal.
Byl to chladný den.
Byl to hloupý nápad.
Byl Tom zraněn?
Byl to náš pes, který se ztratil, ne Tomův.
Byl to nejhroznější den mého života.
Byl to ohromný a skutečný posun.
Byl to pro mě velký šok.
Byl to skvělý generál a státník.
Byl to těžký rok.
Byl to Tom, kdo ho přivedl na scestí.
Byl to Tom, kdo vám umyl auto.
Byl to Tom, kdo začal tu hádku.
Byl to Tom, kdo způsobil Mary tohle trápení.
Byl to velký okamžik v dějinách národa.
Byl trochu zaskočen.
Byl unavený a proto šel brzo spát.
Byl unavený a proto šel brzo spát.
Byl velmi překvapen.
Byl víceméně opilý.
Byl v Paříži.
Byl v Římě, ale neviděl papeže.
Byly časy, kdy jsem měl Toma rád.
Byly to nejlepší roky mého života.
Byly ty volby zmanipulované?
Byly ve sprše.
Byl za námi.
Byl zodpovědný za smrt tvého otce.
Být dobře přizpůsobený silně choré společnosti není důkazem zdraví.
Být hezký má také své nevýhody.
Být milován je asi ten nejskvělejší pocit na světě.
Být na mém místě, co bys udělal?
Být tebou bych Tomovi zavolal v pondělí večer.
Být tebou, nebyl bych si moc jistý.
Být tebou, učil bych se.
Být tebou, zeptám se ho.
Být vámi, tak bych tu zahradu neprodával.
Bývala bych ráda jela do Bostonu s tebou.
Bývala jsem tu učitelkou.
Bývala učitelkou.
Bývala větší.
Býval bys to mohl udělat.
Bývali jsme snoubenci.
Bývali jsme sousedy.
Býval jsem chudý jako ty.
Býval jsem jako Tom.
Býval jsem lechtivý.
Býval jsem ošklivý.
Býval jsem slavný.
Býval jsem štíhlý.
Býval jsem učitelem francouzštiny.
Býval jsem učitelem.
Býval jsem vrchním.
Býval jsem zahradníkem.
Bývalo to pěkné místo k bydlení.
Byv napsán příliš rychle, dopis obsahoval mnoho chyb.
Čaj je jeden z nejoblíbenějších teplých nápojů na světě.
Čaj podporuje trávení.
Canberra je hlavní město Austrálie.
Čaroděj je zpátky.
Čarodějnice proklela to nešťastné děvče.
Čaroděj se vrátil.
Carol se vrátila do svého hotelu.
Čas byl proti Danovi.
Čas hraje pro Toma.
Čas je nemilosrdný.
Čas je vzácný.
Čas odsud vypadnout.
Čas se mění.
Často dělám domácí úkoly před večeří.
Často děláme, co musíme, ne co chceme.
Často jí brambory.
Často jsem ho slyšel to říkat.
Často jsem navštěvoval jeho dům.
Často se dívám na filmy ve francouzštině.
Často trávím svůj volný čas posloucháním hudby.
Čas utíká rychle, když se dobře bavíš.
Čas vše zahojí.
Čas zhojí zlomená srdce.
Čas zmizet.
Čeho jste se bály?
Čeho se bojíte?
Čeho se Tom tak bojí?
Čeho se Tom tak bojí?
Čekajíc na autobus, potkala jsem svého přítele.
Čekají na nás na vlakovém nádraží.
Čekali jsme na ráno.
Čekali jsme na úsvit.
Čekali jsme.
Čekal jsem a čekal.
Čekal jsem až přijede autobus.
Čekal jsem na ni, ale ona nepřišla.
Čekal jsem na Toma celé dopoledne, ale on vůbec nepřišel.
Čekal jsem od Toma víc.
Čekal jsem, že řeknou pravdu.
Čekalo na něho hodně lidí.
Čekám na odpověď od Toma, ale ještě o sobě nedal vědět.
Čekám na tebe přes hodinu.
Čekám na to, abych si s tebou promluvil.
Čekám na vás.
Čekám půl hodiny.
Čekám tady skoro tři hodiny.
Čekám už dvě hodiny. Nemohu už dál čekat.
Čekám, že ji příští léto zase uvidím.
Čeká nás pozitivní změna.
Čeká na tebe tvůj bratr, Charlesi.
Čekáte hosty?
Celá rodina už je zase spolu.
Celá ta situace mi přišla nechutná.
Celá třída zírala na Toma.
Celá země o tom mluví.
Celé nám to trvalo jen tři hodiny.
Celý den jsem strávil uklízením domu.
Celý den jsem zůstal doma.
Celý den jsme strávili průzkumem jeskyně.
Celý smysl nošení roušek spočívá v ochraně lidí kolem vás.
Celý svět se změní.
Čemu dávám přednost? Sexu, nebo šachům? To záleží na pozici.
Čemu Tom doopravdy věří?
Čemu z toho, co Tom řekl, věříš?
Cena benzínu je tak vysoká, že velké auto si koupit nemůžeme.
Cena ropy klesá.
Cesta před vámi je neprůjezdná.
Čeština a slovenština jsou navzájem srozumitelné jazyky.
Cestovala po Japonsku.
Cestoval jsem s Tomem společně po světě.
Cestoval obchodně.
Cestování vlakem bývalo levnější, než cesta autobusem.
Cestuješ lodí nebo letadlem?
Cestujete rády?
Cestuji nalehko.
Četl jsem několik knih o masových vrazích.
Četl jsem, že prezidentem Brazílie je žena. Jmenuje se Dilma.
Četl jsem, že prezidentem Brazílie je žena. Jmenuje se Dilma.
Chamtivost může lidem zničit život.
Chápe, co musí udělat.
Chápu, o co se snažíš, ale nebude to fungovat.
Chce abych žárlila, ale nedokáže to.
Chceme, abys přišel na náš večírek.
Chceme koupit nový dům.
Chceme naši půdu zpět.
Chceme se tam vrátit, jakmile to půjde.
Chceme si zamluvit výlet do Francie.
Chce mě Tom vidět?
Chceme to tak nechat.
Chceme to zpět.
Chceme znát tvůj názor.
Chceme zpět naši práci.
Chceme zpět naši svobodu.
Chceš, abych byla šťastná?
Chceš, abych odešla?
Chceš, abych to položil na stůl?
Chceš, abych zavolal záchranku?
Chceš, abych zhasnul?
Chceš být povýšen?
Chceš dnes ráno ovesnou kaši?
Chce se mi slavit.
Chce si číst časopis.
Chceš k tomu, co jsem právě řekl, něco dodat?
Chceš-li, můžeš přijít.
Chceš mě políbit?
Chceš mě zabít?
Chceš mluvit soukromě?
Chceš opravdu pomoci?
Chceš opravdu zůstat věčně mladá?
Chceš opravdu zůstat věčně mladý?
Chceš si koupit kachnu?
Chceš si zahrát hru?
Chce s tebou ihned mluvit.
Chceš to probrat?
Chceš vědět, jak se jmenuje?
Chceš vědět, kdo to udělal?
Chcete, abych odešla?
Chcete, aby vás Tom doprovázel?
Chcete kafe?
Chcete opravdu zůstat věčně mladí?
Chcete se o Tomovi dozvědět více?
Chcete Tomovi ublížit?
Chcete to vědět?
Chce Tom vejít?
Chce to odhodlání.
Chce to trpělivost, udělat to.
Chce zpívat a tancovat.
Chci, abychom byli rodina.
Chci, abychom zvítězili.
Chci, aby každý z vás byl tichý jako myška.
Chci, aby mi Tom pomohl uklidit obývák.
Chci, abys chvilku počkal.
Chci, abys ji viděl.
Chci, abys líp pracoval
Chci, abys odešel z mého domu.
Chci abys opustila můj dům.
Chci, abys se sem dostal co nejdříve.
Chci, abyste chvilku počkali.
Chci, abyste si přečetli tuto knihu.
Chci, abyste udělali tento test.
Chci abys věděla, že si můžeme přestat dělat starosti.
Chci, abys vykopal díru.
Chci, aby tohle brzy skončilo.
Chci, aby to Tom udělal, ale on mi řekl, že to neudělá.
Chci akorát zpátky svoji práci.
Chci být elektrikář.
Chci být novinářkou.
Chci být první, kdo to udělá.
Chci být slavný.
Chci být s Tomem navždy.
Chci děti, ale můj muž je nechce.
Chčije.
Chci jen být schopen navštívit své děti, kdykoli se mi zachce.
Chci jen tebe.
Chci jít s Tomem na lov.
Chci kafe.
Chci koupit své mámě nějaké květiny ke Dni matek.
Chci koupit tucet koblih.
Chci meč!
Chci mluvit plynně francouzsky.
Chci mluvit s Tomem, prosím.
Chci MP3 přehrávač!
Chci napsat dopis. Mám obálku, ale nemám žádné známky.
Chci na té škole studovat.
Chci natřít své auto na modro.
Chci něco na psaní.
Chci nějaké peníze.
Chci pomoct, ale momentálně jsem zaneprázdněn.
Chci rozumět lidem.
Chci sedět mezi tebou a Tomem.
Chci se dívat na tento film!
Chci se dostat domů před setměním.
Chci se ještě trochu vyspat.
Chci se přesvědčit o pravdivosti tohoto příběhu.
Chci se s nimi zase sejít.
Chci se stát baletním tanečníkem.
Chci se stát lepším tanečníkem.
Chci se stát simultánním tlumočníkem.
Chci se tam dostat dříve než Tom.
Chci se učit Nizozemštinu.
Chci se učit srbsky.
Chci se ujistit, že jsi připraven.
Chci se ujistit, že jste ten, kdo říkají, že jste.
Chci se vás zeptat na váš výlet do Bostonu.
Chci si koupit český svetr.
Chci si koupit laciný slovník.
Chci si najít nějaký byt blízko školy.
Chci si to vzít s sebou.
Chci si vydělat hodně peněz.
Chci si zatančit s Marií.
Chci skončit.
Chci s ní mít sex.
Chci s ní mluvit o své budoucnosti.
Chci s tebou jít na lyže.
Chci s tebou jít na ryby.
Chci s tebou mluvit o něčem jiném.
Chci studovat v zahraničí.
Chci svoji matku.
Chci tady zůstat tři dny.
Chci tam pracovat.
Chci tě držet za ruku.
Chci tenhle film vidět.
Chci tě rozesmát.
Chci ti něco ukázat v mé kanceláři.
Chci ti pomoci.
Chci tu pár ddní zůstat.
Chci vám říct ještě jednu věc.
Chci vědět, co bude dál.
Chci vědět, co se tady děje.
Chci vědět, co tady děláš.
Chci vědět, co Vy tu děláte?
Chci vědět, jak jste se sem dostali.
Chci vědět, kdy budeš hotov.
Chci vědět, kdy půjdeš na nákup.
Chci vědět, kdy půjdete na nákup.
Chci vědět o každém Tomově kroku.
Chci vědět, proč jsi tady.
Chci vědět, proč to děláš.
Chci všem poděkovat za jejich modlitby.
Chci zabít Toma ještě předtím, než zabije on mě.
Chci zapomenout, proto piji.
Chci zase začít pracovat.
Chci zavřít dveře.
Chci žít v pravdě a lásce.
Chci zjistit, co Tom včera dělal.
Chci zůstat, ale Tom chce jít domů.
Chlapci a děvčata si hrají v zahradě.
Chlapec hraje na klavír.
Chlapec má žízeň.
Chlapec přitlačil svůj obličej na výlohu.
Chlapec si upravil čepici.
Chléb je čerstvý.
Chléb je hnědý.
Chodila ho navštěvovat do špitálu každý den.
Chodila jsi s Tomem, když jste byli na střední škole, že?
Chodila s ním.
Chodil s ní do školy.
Chodím do knihovny každé pondělí.
Chodím pomalu.
Chodíš často plavat?
Chodíš sem často?
Chodíte často do restaurace?
Chodíte s Tomem na procházky?
Chodívala s ním.
Chodívali jsme spolu na ryby.
Chodíval jsem do školy.
Chovala se, jako kdyby byla posedlá.
Chová se, jako kdyby mu to patřilo.
Chováš se arogantně.
Chovejte se slušně.
Chraň ho.
Chtějí jim ukrást duše.
Chtějí nás zničit.
Chtějí tě slyšet zpívat.
Chtěla, aby jí řekl, že ji miluje.
Chtěla bych být tvoje žena.
Chtěla bych heřmánkový čaj.
Chtěla bych zůstat na jednu noc.
Chtěla by si koupit knihu.
Chtěla bys jedno?
Chtěla by vědět, kdo poslal ty kytky.
Chtěl bych, abyste šli se mnou.
Chtěl bych, abyste tuhle knihu přeložili do angličtiny.
Chtěl bych, abys tuto knihu přeložil do francouzštiny.
Chtěl bych být teď v Paříži.
Chtěl bych červené víno.
Chtěl bych cestovat a navštívit nová místa.
Chtěl bych heřmánkový čaj.
Chtěl bych mluvit s hlavní sestrou.
Chtěl bych o tomto místě znát více.
Chtěl bych se odhlásit.
Chtěl bych si přečíst vaši novou knihu.
Chtěl bych Tomovi otevřít oči.
Chtěl bych volit.
Chtěl bys jedno?
Chtěl bys jednu?
Chtěli, abych Toma okamžitě navštívil.
Chtěli, abych Toma provedl po fabrice.
Chtěli, aby Hawaii byla součástí Spojených států.
Chtěli, aby Tom odešel.
Chtěli byste mít psa?
Chtěli prodat dům.
Chtěli vědět, jak vychovávat bilingvní dítě.
Chtěl jsem, aby mě Tom zavezl na letiště.
Chtěl jsem být novinářem.
Chtěl jsem být právníkem.
Chtěl jsem po Tomovi, aby si se mnou zahrál šachy, ale on řekl, že nechce.
Chtěl jsem pouze hamburger.
Chtěl jsem se s Tomem opět setkat.
Chtěl jsem se tomu vyhnout.
Chtěl jsem si otevřít vlastní restauraci.
Chtěl jsem ti to říct, ale zapomněl jsem.
Chtěl jsem Toma rozesmát.
Chtěl jsem tvoji fotku.
Chtěl jsem vědět, jestli si máme koupit auto, nebo ne.
Chtěl jsem vědět, kdy se vrátí.
Chtěl jsem vidět Tomův pokoj.
Chtěl jsem zavolat svému právníkovi.
Chtěl jsem zjistit, co se děje.
Chtěl jsem zjistit, co se stalo.
Chtěl koupit tu knihu.
Chtěl mít větší kontrolu nad svým životem.
Chtěl uspět.
Chtěl vědět, kde je jeho žena.
Chudoba cti netratí.
Chudoba je příčina smrti, které lze zabránit.
Chudoba je zbytečná příčina smrti.
Chutná to dobře.
Chutná to výborně.
Chvíli váhal.
Chvilková nepozornost může pilota stát život.
Chvilku prosím počkejte.
Chyběla ve škole pět dní.
Chyběl jsem ti?
Chybělo už jen to!
Chybí jeden z nožů.
Chybovat je lidské.
Chybovat je normální.
Chystají se Toma zatknout.
Chystal jsem se odejít, když v tom v domě vypukl požár.
Chystám se koupit nový dům.
Chystám se na nejhorší.
Chystá se mě zabít.
Chystá se začít.
Chystá se zvýšit daně.
Chyť je, jestli chceš.
Chyť si mě.
Čí je ten notebook?
Čí je ten zápisník?
Čí je to auto?
Čí je to pes?
„Čí je to židle?“ „Ta je moje.“
„Čí jsou tohle ponožky?“ — „Mojí sestry.“
“Čí jsou to zuby?” - “Tyhle zuby jsou mého dědy.”
Čím méně času tady strávíš, tím lépe.
Čím méně programů je otevřených najednou, tím lépe pro váš počítač.
Čím se Tom liší od svých vrstevníků?
Čím se to nahradí?
Čím tě Tom urazil?
Čím ti Tom vyhrožoval?
Čím více jíš, tím více chceš.
Čím více se toho o Tomovi dozvídám, tím méně mu důvěřuji.
Čím víc posloucháš, tím víc mluvíš.
Čím víc studuješ, tím víc se naučíš.
Čína má víc než miliardu obyvatel.
Čínština je obtížnější, než jiné cizí jazyky.
Čínština je vždycky těžší, než jakýkoliv jiný jazyk.
Čí pero je tohle?
Číslo rezervace je 1003.
Číšník nám donesl objednané jídlo rychle.
Číšník nás rychle obsloužil.
Cisternový kamion s benzínem narazil do brány a vybuchnul.
Čisté svědomí je neobyčejně měkký polštář.
Cítili jsme se osamělí.
Cítil jsem její parfém.
Cítil jsem povinnost to udělat.
Cítil jsem se jako kdybych byl mrtvý.
Cítil jsem se jako zvíře.
Cítil jsem Tomovu nevraživost vůči nám.
Cítil jsem to samé.
Cítíme se izolovaní.
Cítíme se osamělí.
Cítím se dobře, děkuji.
Cítím se jako blázen.
Cítím se mnohem lépe, než před chvílí.
Cítím se příliš starý.
Cítím to stejně, jako ty.
Cítíš se hodně unavený?
Cítíš to napětí?
Cítíte při tom bolest?
Článek byl napsán v ruštině.
Člověk jako ty mě nemůže urazit.
Člověk je hříšný.
Člověk je postaven na vrchol potravinového řetězce.
Člověk má v sobě skrytou náklonnost ke štěstí.
Člověk mu může věřit.
Člověk musí pořád studovat.
Člověk nemůže být úspěšný, pokud se nemá k práci.
Člověk uvažuje, jestli to lze udělat jednodušeji.
Co budeme dělat pak?
Co bude první věc, kterou uděláš?
Co bude s Tomem?
Co bych měl jíst prvně?
Co bych měl v této situaci udělat?
Co bychom si bez vás počali?
Co bylo včera za den?
Co by se stalo, kdybychom to udělali?
Co bysme bez tebe dělali?
Co byste udělal vy?
Co bys udělala, kdybys byla na mém místě?
Co bys udělal, kdybys byl na mém místě?
Co chceš, abych tam dělal?
Co chceš dát Tomovi?
Co chceš k pití?
Co chceš k příštím narozeninám?
Co chceš příště k narozeninám?
Co chceš říct tím ''nelíbí se mi''?
Co chtěl, aby udělali?
Co chtěl?
Co čteš za knihu?
Co dalšího by mohli dělat?
Co dělá jednoho člověka chytřejším, než je ten druhý?
Co dělají moji prarodiče?
Co dělají sousedi?
"Co děláš?" "Dívám se, jak mi rostou rostliny."
Co děláš v mé posteli?
Co děláte na takovémhle místě?
Co dělá tvůj otec?
Co dnes Tom dělal?
Co doopravdy chtějí?
Co hodláš dělat dnes večer?
Co je lepší, geocaching nebo tatoeba?
Co je podle vás štěstí?
Co je poslední, co si pamatuješ?
Co je pro tebe štěstí, Tome?
Co je s tebou?
Co ještě by mohli udělat?
Co ještě musím udělat, abych získal tvoji důvěru?
Co ještě nesnášíš?
Co ještě o Tomovi nevíme?
Co je ta vysoká budova?
Co je to kritické myšlení?
Co je to platonická láska?
Co je to pravda?
Co je to tedy?
Co je to tornádo?
Co je to za divný zápach?
Co je to za ptáka?
Co je to za rybu?
Co je tvým cílem?
Co je větší, Slunce nebo Země?
Co jí krokodýli?
- Co jim Tom ukradl? - Nějaké peníze.
Co jim udělal?
Co jí udělali?
Co jsem mohl udělat lépe?
Co jsi čekal, že uvidíš?
Co jsi dělal včera večer?
Co jsi mi to udělala?
Co jsi mi to udělal?
Co jsi mu řekl?
Co jsi mu řekl?
Co jsi schoval?
Co jsi udělala s mou peněženkou?
Co jsou to viry?
Co jste se naučili?
Co jste udělali proto, aby se to nestalo? Odpovím za vás. Neudělali jste nic.
Co jste udělali proto, abyste tomu zabránili? Odpovím za vás. Neudělali jste nic.
Co kdybychom jeli vlakem?
Co kdybychom na včerejší noc zapomněli?
Co kdybychom něco udělali?
Co kdybychom odešli, než nás někdo uvidí?
Co kdybychom odešli?
Co kdybychom se podívali, jak to Tom dělá?
Co kdybychom se sešli po práci?
Co kdybychom se teď vrátili?
Co kdybychom se všichni zuli?
Co kdybychom se zeptali Toma?
Co kdybychom si šli popovídat na nějaké klidné místo?
Co kdybychom si spolu šli zaplavat?
Co kdybychom šli k Tomovi?
Co kdybychom šli s Tomem na ryby?
Co kdybychom šli ven na čerstvý vzduch?
Co kdybychom to dali do kufru?
Co kdybychom Tomovi pomohli?
Co kdybychom to nechali Toma udělat?
Co kdybychom to nechali udělat Toma?
Co kdybychom to ukončili?
Co kdybychom vystoupili z auta?
Co kdybychom zítra vyrazili na pláž?
Co kdybychom zkusili Toma najít?
Co kdyby ses chvilku zdržela?
Co kdyby ses nastěhovala do mého domu?
Co kdyby ses nastěhoval ke mně domů?
Co kdyby ses něčeho napil?
Co kdyby ses u mě stavěl?
Co kdybys jen tak pro sichr přinesl deštník?
Co kdybys mě navštívil, až budeš příště v Bostonu?
Co kdybys mě pozval na skleničku?
Co kdybys šel dál a promluvíme si o tom.
Co kdybyste ke mně zašli?
Co kdybyste na chvilku zůstali?
Co kdybyste se zastavili v pondělí?
Co kdybys Tomovi ukázal, jak se to dělá?
Co kdyby Tom byl jedním z nás?
Co kdyby to pokračovalo navždy?
Co když je Tom najde?
Co když přijdu o práci? Co budeš dělat?
Co když Tom Mary ublíží?
Čokoláda má sladkou chuť.
Co mají Tom s Mary za problém?
Co máme dělat, abychom to urychlili?
Co máme dělat v případě požáru?
Co má s obličejem?
Co máš v kufru?
Co máš v pravé ruce?
Co má ten kluk za problém?
Co máte?
Co má Tom za problém?
Co mi udělal?
Co mi uniklo?
Co mu udělali?
Co můžeš říct o sobě?
Co myslíš, že udělá?
Co nám chceš říct?
Co nám chcete říct?
Co nám udělala?
Co napsal?
Co na to říkáš, Tome?
Co nová práce?
Co od ní chce?
Co o nich víte?
Copak mě už nemiluješ?
Copak nevíš, že je neslušné ptát se dámy na její věk?
Copak ses zbláznil?
Copak ta loď nejede rychleji?
Co píšeš? Píšu dopis.
Co platilo kdysi, platit už nemusí.
Co pomáhá léčit kašel?
Co potřebuje Tom přeložit?
Co přesně chceš říct?
Co přesně tohle slovo znamená?
Co rád čteš?
Co rád sleduješ v televizi?
Co říkají?
Co říkal?
Co se děje doopravdy?
Co se děje?
Co ses naučil?
Co se stalo s mými dveřmi?
Co se stane, pokud nás chytí?
Co se tedy přesně stalo?
Co se ti nelíbí?
Co se ti stalo?
Co se ti stalo?
Co se to snaží říci?
Co se to tam dělo?
Co se to tam venku děje?
Co se tyče mě, nejsem proti.
Co se vám dvěma stalo?
Co se vám líbí nejvíc na létě?
Co si chceš koupit?
Co si dáte?
Co si myslíš o své práci?
Co si myslíte o jejím návrhu?
Co si myslí většina?
Co si obvykle objednáváte v restauraci?
Co si od tebe Tom půjčil?
Co si o tom myslet?
Co si o tom myslíš?
Co si pomyslí sousedi?
Co sis myslel o filmu?
Co si Tom myslí, není vůbec podstatné.
Co tady roste?
Co takhle dát si k večeři rybu?
Co takhle pivo?
Co takhle znovu začít úplně od začátku?
Co teď děláš?
Co tě napadne, když vidíš tento obrázek?
Co tě nepálí, nehas.
Co ti brání v tom, Toma oslovit?
Co Toma dohnalo k vraždě?
Co Toma tak podráždilo?
Co Toma trápí?
Co Tom křičel na dav?
Co Tomovi brání tu práci vzít?
Co Tom rád dělá?
Co tomu řeknou sousedi?
Co tu sakra děláš, Tome?
Co ty jsi zač?
Co udělají, aby Toma zachránili?
Co udělají, aby Toma zachránili?
Co udělají pro záchranu Toma?
Co udělají pro záchranu Toma?
Co udělal, bylo proti lidskosti.
Co udělal Tom?
Co víš?
Co vyjednáváte?
Co za lidi zde původně žilo?
Co zapomínám?
Co za tím je?
Cože?! Tys mi snědl čokoládového medvěda?!
Co znamená TATOEBA?
Cožpak nechápete, že Tom musí odpočívat?
Cožpak nemůžeš Tomovi pomoct?
Cožpak nevidíte, že námi pohrdají?
Cožpak nevíš, že vše, co mám, je také tvoje?
Cožpak si na mě nevzpomínáš?
Cožpak si na nás nevzpomínáš?
Cožpak si na nic nevzpomínáš?
Cožpak si nepamatuješ Desatero Božích přikázání?
Cožpak si nevzpomínáš na Toma?
Což takhle projít se po pláži?
Což takhle vyhodit Toma, místo mě?
Čteš mi myšlenky
Čteš rád?
Čteš teď něco?
Čtete rádi?
Čti tuhle knihu!
Čtu noviny.
Čtu si knížku v knihovně.
Čtu tuto knihu.
Čtyři krát pět je dvacet.
Čtyřúhelník je geometrický útvar, který má čtyři stěny a čtyři úhly.
Cucala jsem si prst.
Cucni si toho.
Cvičím dvě hodiny denně.
Ďábel je v detailech.
Dala mi košili.
Dala mu pěkný dárek.
Dala mu všechno své stříbro.
Dala se do hovoru se svými sousedy.
Dal bych si jedno pivo.
Dal bys mi sklenici mléka?
Dále čekat se zdá být ztrátou času.
Dali mi jméno na počest mého pradědečka.
Dali mu důležitý úkol.
Dali nám poslední šanci.
Dali se do pláče.
Dali ti najíst?
Dali vám něco k jídlu?
Dal jsem mu facku.
Dal jsem Tomovi své slovo.
Dal jsem Tomovi svůj starý počítač.
Dal jsem Tomovi vše, co jsem měl.
Dal jsem Tomovi vše, o co kdy požádal.
Dal mi chléb a mléko.
Dalo by se s tebou lépe vycházet, kdybys více poslouchal.
Dals jí pusu, ne?
Dal trochu mléka kočce.
Dál už na něho čekat nemohu.
Dáme si aperitiv?
Dám se do formy.
Dám si sklenku šampaňského.
Dám ti cokoliv chceš.
Dám ti dárek.
Dám ti k narozeninám kolo.
Dám ti to CD zpět do týdne.
Dám ti všechno, co budeš chtít.
Dám Tomovi tu knihu zítra.
Dám Tomovi tuto knihu.
Dám to Tomovi.
Dám vám pět dolarů.
Dan a Linda spolu přestali mluvit.
Dan chtěl, abys věděl, že k tobě nechová nenávist.
Dan se právě zastřelil.
Darovali jsme školní knihovně přes stovku knížek.
Darovanému koni na zuby nehleď.
Dáš si něco k pití?
"Dáš si panáka?" "Ne, díky. Beru léky."
Dáte si něco k pití?
Dává jí všechno, o co žádá.
Dáváme ti šanci se zapojit.
Dávám přednost angličtině.
Dávám přednost českým potravinám před těmi dováženými.
Dávám přednost kávě.
Dávám přednost stříbrným prstenům před zlatými.
Dávám přednost tmavému chlebu před bílým.
Dávám přednost vlaku před autobusem.
Dávám Tomovi poslední šanci.
Dáváš si vždycky k snídani kafe?
Dávej si pozor na cizí lidi.
Dávejte si na Toma pozor.
David má tolik holek, že si nepamatuje, jak se všechny jmenujou.
Dav se shromáždil okolo.
Dceru nemáme.
Dědovi Toma bude příští měsíc devadesát.
Dej auto do garáže.
Děje se to každý den.
Děje se to několik hodin.
Dej limetku do kokosu.
Dejme šálek čaje a popovídejme si.
Dej mi čas.
Dej mi ještě trochu mléka!
Dej mi kousnout.
Dej mi pokoj!
Dej mi pokoj.
Dej mi prosím ještě poslední šanci.
Dej mi prosím pět žetonů.
Dej mi prosím tě pokoj.
Dej mi svátek!
Dej mi svátek.
Dej mi svůj nůž.
Dej mi ten nůž.
Dej mi tři minuty.
Dej mi tu knihu.
Dej mi víc peněz.
Dej prosím jejich jména na vše, co si berou s sebou.
Dej si pozor, ať tě nepodezírají.
Dejte mi tu knihu.
Dejte prosím Tomovi více času.
Dejte si pozor, aby vás nepodezírali.
Dejte Tomovi, co potřebuje.
Dejte Tomovi, o co žádá.
Dejte to na účet, prosím.
Dej Tomovi jeho klíče.
Dej Tomovi, o co žádá.
Dej to na nejvrchnější polici. Děti tam nedosáhnou.
Dej to na stůl.
Dej trochu silné kávy i mně!
Dej vápno do kokosu.
Děkuji ti za tvůj zájem.
Děkuji ti za všechno, co jsi pro mě udělal.
Děkuji, to je vše.
Děkuji vám za spolupráci.
Děkuji za kontrolu.
Děkuju mnohokrát!
Dělají to, protože jim to dovolíme.
Dělají to, protože jim to dovolíme.
Dělají to, protože jim to dovolíme.
Dělal jsem, co jsem mohl, abych Toma zastavil.
Dělal jsem, že ho nevidím.
Dělal jsem, že ho neznám.
Dělalo mi to starosti.
Dělal, že umírá.
Dělám hodně hloupých rozhodnutí.
Dělám přesně to, co jsi mi řekl.
Dělám si hodně starosti.
Dělám to celý svůj život.
Dělá něco Tom?
Dělá nejlepší sandwiche na světě!
Dělání chyb je běžné.
Dělávali jsme pro Toma.
Dělával jsem totéž.
Dělejme, že jsme to neslyšeli.
Dělej pořád to samé.
Dělejte všechno s rozvahou.
Dělej! Už nemůžu čekat.
Delfíni a velryby nejsou ryby.
Deset, dvacet, třicet, čtyřicet, padesát, šedesát, sedmdesát, osmdesát, devadesát, sto.
Deset, jedenáct, dvanáct, třináct, čtrnáct, patnáct, šestnáct, sedmnáct, osmnáct, devatenáct, dvacet.
Detaily se nezabývám.
Detaily útoku jsou stále neznámé.
Děti brzy usnuly.
Děti by měly chodit do školy.
Děti často nenávidí špenát.
Děti často umírají ve vaně.
Děti jsou hladové.
Děti jsou květiny našich životů.
Děti jsou stále vzhůru.
Děti, které byly unavené, ihned usnuly.
Děti, které mají žízeň, by měly pít vodu.
Děti mladší osmi let mají nevyvinutý čelní lalok, což může způsobovat to, že nedokáží oddělit realitu od fantazie. Některé mohou například věřit, že v jejich skříni, či pod postelí je nějaká nestvůra. Také někdy nedovedou rozlišit sny od reality.
Děti nemám.
Děti nenosí čáp.
Děti se rády dívají na televizi.
Děti se snaží poučovat své rodiče, jak nejlépe umí.
Děti se učí sledováním toho, co dělají dospělí okolo nich.
Děti si hrají s hračkami.
Děti si hrají s různými hračkami.
Děti si hrály na pískovišti, jejich matky seděly na lavičce nedaleko od nich a pozorovaly je.
Děti si ještě hrají na pískovišti.
Děti sledovaly televizi zatímco Tim vařil večeři.
Děti utekly před rozezleným Tomem.
Děti už neumí rozeznat slepice od krav.
Děti vyrůstají tak rychle.
Detroit je znám pro svůj automobilový průmysl.
Děvčata byla proti našemu plánu.
Děvčátko objalo Toma.
Děvče se bálo vlastního stínu.
Dick měl dopravní nehodu.
Díky bohu, že jsi tu.
Díky jejímu vytrvalému úsilí jsme dosáhli našeho cíle.
"Díky." "Ne, to já děkuji tobě!"
Díky rozvoji letectví se svět stal mnohem menším.
Díky!
Díky!
Díky za vaší pomoc vyřešit ten problém.
Dinosauří vejce? Vyloučeno. Tito živočichové už vyhynuli.
Diskuse s Tomem pro nás byla vyčerpávající.
Diskutovali jste dlouho?
Diskutovalo se o tom.
Dítě bylo v rouše Adamově.
Dítě jí chléb.
Dítě kašle celou noc.
Dítě lezlo po čtyřech.
Dítě není nikdy oblečeno příliš teple.
Dítě plakalo celou noc.
Dítě sebralo malý kámen.
Dítě se učí rychle.
Dítě se ztratilo v tábořišti.
Dítě uklidnila jeho matka.
Dívala se na krásnou květinu.
Dívala se na mě podezřívavě.
Díval jsem se všude, ale nebylo to tam.
Díval se, jak děti plavou.
Dívám se, co je na jídelním lístku.
Dívám se na ni, jak tiše spí.
Dívá se na tebe.
Dívá se někdo?
Díváš se rád na filmy?
Dívce, která se mi líbila, se líbil také Tom.
Dívka přestala mluvit a usmála se; mladý muž přestal mluvit a povzdechl si.
Dívky byly proti našemu plánu.
Dívky, které jsem dnes potkal, byly studentky.
Dívky, se kterými jsi mluvil, jsou mé bývalé studenky.
Dle mého názoru je nevinen.
Dlouho jsem ji neviděl.
Dlužíš mi pivo.
Dlužíš mi službičku.
Dnes bychom se měli Tomovi raději vyhnout.
Dnes jdu do nemocnice.
Dnes je hezky.
Dnes je historicky významný den.
Dnes je o něco lepší počasí, nežli včera.
Dnes je Štědrý den.
Dnes je teplo, takže si můžeš zaplavat v moři.
Dnes jsem byl v práci s Tomem.
Dnes jsem měl první hodinu s Tomem.
Dnes jsem nebyl v práci.
Dnes jsem příliš líný na to, abych něco dělal.
Dnes jsem příliš líný na to, něco dělat.
Dnes jsem s nikým nemluvil.
Dnes jsem ti přinesl oběd.
Dnes jsi byl dost tichý.
Dnes jsme měli dva falešné poplachy.
Dneska je středa.
Dneska je velké vedro.
Dneska mám narozeniny.
Dneska mám schůzku se svým právníkem.
Dneska se ti ukážu z jiné stránky.
Dneska Tom spal až do poledne.
Dneska Tom spal až do poledne.
Dnes mají chlapci svá vlastní kola.
Dnes měl být doma.
Dnes mě všechno překvapuje.
Dnes miluji celý svět.
Dnes nebude doma.
Dnes nebudu pracovat přesčas.
Dnes nejsem ve formě.
Dnes nemám čas.
Dnes nepracuji.
Dnes nezemřu.
Dnešní úkol je mnohem snazší, než byl ten včerejší.
Dnes odpoledne bude opět pršet.
Dnes odpoledne nemám čas.
Dnes podává jídlo Tom.
Dnes potřebuji jít domů trochu dřív.
Dnes ráno jsem přišel pozdě do školy.
Dnes ráno jsem Tomem mluvil.
Dnes ráno jsem vstal v šest hodin.
Dnes ráno mě upoutal jeden titulek.
Dnes ráno tě přišel navštívit Tom.
Dnes se cítím lépe než včera.
Dnes sem ji ještě neviděl.
Dnes se zdá být tepleji.
Dnes si přinesl oběd s sebou.
Dnes si vedeš o dost lépe.
Dnes studovat nechci.
Dnes to nemohu dokončit.
Dnes večer čekám společnost.
Dnes večer máme hosty.
Dnes večer mám volno.
Dnes večer nám Tom určitě zavolá.
Dnes v noci se velmi ochladí.
Dnes v noci vlezl do ohrady mladík, který se pokusil jednu z ovcí pohlavně zneužít.
Dnes v noci zemřu.
Dnes zavíráme brzo.
Do Austrálie se vracíme 20. října.
Do Austrálie se vracím v říjnu.
Dobře, děkuji. A vy?
Dobře jsem své peníze zhodnotil.
Dobře mi platí.
Dobré odpoledne.
Dobré ráno.
Dobře se pamatuji toho dne, kdy ses narodil.
Dobře vás odškodníme.
Dobře vás odškodníme.
Dobře věděli, co přijde.
Dobře. Vezmu si to.
Dobře víš, že jsem neměl čas udělat to, oč jsi mě žádal. Nevím, proč se mě pořád ptáš, jestli je to hotové.
Dobře vyschlé dřevo je na stavění a truhlařinu lepší.
Dobrou noc, mami.
Dobrou noc, všichni.
Dobrý den, jsem Nancy.
Docela rád se zpětně dívám na své věty abych zjistil, které byly přeloženy do dalších jazyků.
Dočetl jsi tu knihu?
Dohoda se podepsala minulý týden.
Dohodli jsme se, že nebudeme mít děti před třicítkou.
Dohodli se, že tu svatbu odloží.
Do jaké strany patříte?
Dojím svoji kozu.
Dojíždím skoro každý den.
Dokázali jsme nemožné.
Dokázali jste něco z té lodi zachránit?
Dokážeš identifikovat toho muže na obrázku?
Dokážeš rozbít vejce jednou rukou?
Dokážeš si představit, jak to Toma vyděsilo?
Dokážeš si představit svoji budoucnost s Tomem?
Dokážeš to sám?
Dokážete Toma dostat pod kontrolu?
Dokažte, že Tom existuje.
Dokaž to, co říkáš.
Dokážu je porazit všechny.
Dokážu to vůbec?
Dokaž, že si Toma opravdu vážíš.
Do knihovny jsem šel v pondělí.
Do kolikáté třídy chodí tvá sestra?
Dokonce ani po konzultaci s rodilými mluvčími téhle větě pořádně nerozumím.
Dokonce i Tom lhal.
Dokonce i ty nejdůkladněji udělané plány často končí nezdarem.
Dokončili jsme úklid naší třídy.
Dokončil jsem tu práci.
Dokončím to, co Tom začal.
Do kostela chodím v neděli.
Doktor cítil svůj pulz.
Doktor musel ošetřit pacienta v jedné odlehlé vesnici.
Doktor prohlíží pacienta.
Doktor řekl, aby sis neškrábal rány.
Doktor vstoupil dovnitř.
Dokud to neuslyším od Toma, věřit tomu nebudu.
Dole je dáma, která si s tebou přeje mluvit.
Domácí násilí je vážný problém.
Do města je to daleko.
Do močálů není radno vkročit, ale mohou být tajemné.
Donald Trump varoval, že pokud nezvítězí, stane se ze Spojených států druhá Argentina nebo Venezuela.
Donesl jsem dokumenty mému šéfovi.
Donesu oběd.
Do ničeho jsem Toma nenutil.
Donutil mě nést jeho zavazadla.
Dopadlo to dobře.
Do Paříže se dostali současně.
Do pondělka nám dej vědět, jak ses rozhodla.
Doporučila mi, abych tu práci nebral.
Doporučujeme všem, aby přišli.
Doporučuje se jim, aby to vyzkoušeli.
Doporučuji vám, abyste jeli vlakem.
Dopravní nehoda ho připravila o zrak.
Dorazili jsme trochu pozdě.
Dorothy mu poslala pěkný dárek.
Dosáhl svého cíle.
Doslechl jsem se, že se příští měsíc vdává.
Doslechl jsem se, že Tom políbil Mary.
Došli jsme až na vrchol toho kopce.
Došli k závěru, že Tom je nenapravitelná osoba.
Došlo nám jídlo.
Dostal hodně dárků.
Dostal hodně peněz.
Dostali jsme ještě jednu šanci.
Dostali jsme se do situace, ze které již není návratu.
Dostali ten díl.
Dostal jsem lepší nápad.
Dostal jsem od ní telegram.
Dostal jsem pozvání.
Dostal jsem ten dárek od Ann.
Dostal jsem víc, než minule.
Dostal jsi stejnou příležitost, ale tys ji promarnil.
Dostal ses sem brzo.
Dostaň mě z toho ven.
Dostat se na Severní pól není snadné.
Dostavili jsme se trochu pozdě.
Dostavil ses pozdě.
Dostihy jsou kruté a nehumánní.
Dosud jsem se svou prací spokojen.
Dosud nevím, co se stalo s Tomem.
Dosud nevím, kde je Tom.
Dosud nevím, proč jsem to řekl.
Dosud nevím, proč jste to udělal.
Do toho ti nic není!
Do toho vám nic není.
Doufali jsme, že vyhraje.
Doufal jsem, že budeme přátelé.
Doufal jsem, že se spřátelíme.
Doufal jsem, že se tam s Tomem setkám.
Doufal jsem, že tam potkám Toma.
Doufal jsem, že tě najdu.
Doufal jsem, že tomu Tom zabrání.
Doufal jsem, že to Toma rozptýlí.
Doufal jsem, že vás najdu.
Doufáme, že sis neublížil.
Doufáme, že to nebudeme muset dělat.
Doufáme, že tu Tom pár týdnů pobude.
Doufáme, že uspěješ.
Doufám, že brzy uvidím jeho fotku.
Doufám, že bude moci přijít! Rád bych ho viděl.
Doufám, že budu schopen vám nějak pomoci.
Doufám že byl Tom potrestán.
Doufám, že jsem ti nezavolal v nevhodnou dobu.
Doufám, že jsi způsobilý.
Doufám, že Marie brzy napíše.
Doufám, že mě nevyloučí.
Doufám, že nemluvíte o mně.
Doufám, že odmaturuji.
Doufám, že se babičce ten dárek bude líbit.
Doufám, že se bavíš.
Doufám, že se budeme dobře bavit.
Doufám, že se dobře bavíme.
Doufám, že se mi Tom nebude smát.
Doufám, že se mi zanedlouho ozve.
Doufám, že se můj otec brzy vrátí z ciziny.
Doufám, že se nebojíš tmy.
Doufám, že se ti to bude líbit.
Doufám, že si to Tom rozmyslí.
Doufám, že školu dokončím.
Doufám, že tam nepotkám Toma.
Doufám, že to brzy skončí.
Doufám, že tohle je začátek krásného přátelství.
Doufám, že Toma potrestají.
Doufám, že Toma potrestali.
Doufám, že Tom bude potrestán.
Doufám, že Tom dostal to, co potřeboval.
Doufám, že Tom dostal to, co potřeboval.
Doufám, že Tom neonemocní.
Doufám, že to světlo na konci tunelu není od vlaku, který na mě jede.
Doufám, že uspěje.
Doufám, že uvidím Toma.
Doufám, že už se to nikdy nebude opakovat.
Doufám, že už to nebudeme muset dělat.
Doufám, že všechno půjde dobře.
Doufá, že vyhraje, a já také.
Doufá, že vyhraje, a já v to doufám také.
Doufejme, že také půjdeme do Pekingu.
Dovedeš si mě představit, jak připravuji moučník?
Dovedeš si vzpomenout na první slovo, které ses naučila v angličtině?
Dovnitř vešli chlapec a dívka. Mluvil jsem s chlapcem, který se mi zdál starší než dívka.
Dovolenou strávili na horách.
Dovolil svým dětem hrát si s námi.
Dovol mi, abych tě doprovodil!
Dovol mi, abych ti pomohl.
Dovol mi, abych to pro tebe udělal.
Dovol prosím, abych ti to vynahradil.
Dovolte, abych vám vzal ten kufr.
Dovolte mi, abych vám pomohl.
Dovolte mi doprovodit vás!
Dovolte mi to napravit.
Dovolte Tomovi jet s námi.
Dovolte Tomovi jet s námi.
Dovoluji ti to udělat.
Drak je bytost fantazie.
Drby poškodily jeho pověst.
Dřevo hoří velmi snadno.
Dříve či později se to stane.
Dříve jsem se Toma bál.
Dřív jsem hodně pil.
Dřív jsem nekouřil.
Dřív jsem učil francouzštinu.
Držela ho za rukáv.
Drželi se za ruce.
Držel jsem se svých zásad.
Držel své slovo.
Drze nás přerušili.
Drží dietu, neboť má mírnou nadváhu.
Držím ti palce.
Drž je dál od Toma.
Drž se dál od mojí sestry.
Drž ten provaz.
Dublin je hlavní město Irska.
Dublin se nachází v Irsku.
Duha je přírodní úkaz.
Duha je sedmibarevný oblouk na nebi.
dům
Dupla na brzdy.
Důrazně vás před Tomem varuji. Je to zákeřný člověk.
Dustin Moskovitz je židovský podnikatel. Je jedním ze spoluzakladatelů Facebooku.
Důvěřujte Tomovi, a on bude důvěřovat vám.
Dvakrát měř, jednou řež.
Dvanáct znamení zvěrokruhu je: Beran, Býk, Blíženci, Rak, Lev, Panna, Váhy, Štír, Střelec, Kozoroh, Vodnář a Ryby.
Dveře bylo těžké otevřít.
Dveře od výtahu se otevřely, a Tom vyšel ven.
Dveře se nechtěly zavřít.
Dveře vlaku byly otevřeny.
„Ekonomika od sebe vzdaluje oba břehy Atlantiku“ — tak shrnuje deník La Stampa důsledky nedávných prohlášení Baracka Obamy, podle kterého jsou špatné vyhlídky na hospodářský růst ve Spojených státech zaviněny špatným řízením krize v eurozóně.
Emílie jedla jablko.
Epstein nespáchal sebevraždu.
Epstein se nezabil.
Erdogan je prezidentem Turecka.
Esperantem se mluví ve 120 zemích.
Esperanto, oficiální jazyk Evropské Unie, konečně!
Esperanto - pro tebe, aby jsi rozuměl světu.
Está nevando demais.
Ester je lesbická Židovka.
Evidentně je načase, abychom odešli.
Evidentně tady nežijete.
Evropané jsou největšími konzumenty alkoholu na světě.
Existuje další způsob.
Existuje důvod, proč se říká, že láska je slepá.
Existují věci, které se nedají koupit penězi.
Fadil klel jako námořník.
Fadil mě nemiluje.
Faktem je, že jsem dneska nešel do školy.
Faktem je, že jsem dneska nešla do školy.
Fakt ho nenávidím.
Fialové světlo má kratší vlnovou délku, nežli červené světlo.
Film byl v porovnání s knihou zklamáním.
Finsko vás potřebuje.
Fiona věděla, co dělá.
Firma uzavírá své účetnictví na konci března.
Firmy možná budou muset propustit některé zaměstnance.
Firmy přestaly nabírat lidi.
Fotbal je stará hra.
Fouká severák.
Fouká studený vítr.
Foukl mi do tváře kouř.
Franco má modré džíny.
Francouzština je její rodný jazyk.
Francouzština je moc těžká, nechci se ji učit.
Francouzština je můj rodný jazyk.
Francouzština je těžký jazyk.
Fremont a Sutter žili v Kalifornii.
Funguje ten stroj ještě?
Generální stávka by mohla být řešením.
Geometrie je matematická věda, zabývající se studiem a měřením přímek, úhlů, křivek a tvarů, které vznikají spojením několika přímek dohromady.
Greta Thunbergová vyzvala světové představitele, aby udělali pro životní prostředí víc.
Gruzínština je pravděpodobně jeden z nejtěžších jazyků na světě.
Hádali se o tom, kam jet na dovolenou.
Harmony kalí soudnost.
Heather mi věří.
"Hej, sousede! Cožpak ty nechceš tu trávu sekat?" "Ani náhodou! Zůstane to jako pastvina pro včely."
Hele, kočka!
Helena ráda hraje tenis.
Hele, to je vážně prima.
Helsinky jsou hlavní město Finska.
Hepčík!
Hezky jsme si to v Austrálii užili.
Hladoví a žízniví, konečně jsme dosáhli hostince.
Hladuju.
Hlasitěji.
Hlavní město Maďarska je Budapešť.
Hlavní město Mexika je největším městem v Latinské Americe.
Hlavní město Polska je Varšava.
Hlavní město Spojených států amerických je Washington.
Hlavní město Srbska je Bělehrad.
Hlavní město Ukrajiny je Kyjev.
Hlavním městem Francie je Paříž.
Hlavním městem Maďarska je Budapešť.
Hledají místo, kam Tom ukryl hotovost.
Hledají Toma v Austrálii.
Hledal jsem Andyho. Nevíš, kde je?
Hledal jsem Toma, ale nikde jsem ho nenašel.
Hledal jsem Toma s nimi.
Hledám dům.
Hledáme se.
Hledáme Tomovo auto.
Hledám jinou práci.
Hledám místo k bydlení v Bostonu.
Hledám práci.
Hledám své brýle.
Hledám svého bratra.
Hledám svoji ženu.
Hledám svoji ženu.
Hledám toaletu.
Hledáš mne?
Hledá smysl života.
Hledáte něco konkrétního?
Hledáte práci?
Hledáte práci, že?
Hledáte zaměstnání?
Hledej dál.
Hledejme to, co nás spojuje, ne rozděluje.
Hlemýždi jsou hermafroditi.
Hlídávala jsem tě.
Hluboká noc a úplněk nám nabídly jako dar pouze atmosféru.
Hluchoněmí se dorozumívají pomocí znakového jazyka.
Hlupáci se považují za chytré, a chytří lidé si myslí, že jsou hloupí.
Hluší lidé mohou konverzovat ve znakovém jazyce.
Hluší lidé se mohou bavit pomocí znakového jazyka.
Hned jak přestalo pršet, objevila se krásná duha.
Hned ji přiveď.
Hned ji zavolám.
Hned jsem pochopil, co Tom myslí.
Hned jsem zpátky.
Hned se ti ozvu.
Hned vám dám vědět.
Hned za lesem se nachází krásné jezero.
Hněvem mu škubalo ve tváři.
Hodili tu krádež na Toma.
Hodil na mě bláto a ušpinil mě.
Hodně času tráví u svého počítače.
Hodně dívek si myslí, že Tom je hezký.
Hodně jsem o tobě přemýšlel.
Hodně jsem se zlepšil.
Hodně lidí dnes trpí sennou rýmou.
Hodně pije, ale vždy vypadá střízlivý.
Hodně plaveme.
Hodně ses opil.
Hodně se zajímám o jazyky.
Hodně s ní mluvím.
Hodně štěstí!
Hodně štěstí u zkoušky!
Hodně turistů navštíví v létě Maďarsko.
Hodně úspěchů v práci!
Hodně věcí nechápu.
Hodně věcí nechápu.
Hodně výrobků se dováží do Turecka z Polska.
Hoď ten balón Tomovi.
Holky se navzájem kritizují.
Holub i pštros jsou oba ptáci; jeden umí létat a druhý ne.
Hoří!
Hotel je plný cizinců.
Hovoříte slovinsky?
Hraje na xylofon?
Hraje s nimi poker.
Hrají si za domem.
Hraju s přáteli fotbal.
Hranice mohou zůstat dva roky zavřené.
Hraní na anglický roh není snadné.
Hraní na fagot není snadné.
Hrával jsem hokej.
Hrával jsem na trombon.
Hrával jsem tady.
Hrával jsem videohry.
Hrdinové tohle nedělají.
Hřebík, který vyčnívá se zatluče.
Hroši milují vodu.
Hrozně mě bolí hlava.
Hrozně moc jsem s ním chtěla šukat.
Hrozně to tady bolí.
Hrozně to tady smrdí.
Hulákali.
Husa je agresivní pták.
I dítě by dokázalo tuhle otázku zodpovědět.
Igor je špičkový muškař, který se spokojí jen s tím nejlepším.
Ihned odjíždíme.
Ihned sem pojď!
Ihned sem přiveď Toma!
Ihned to dej pryč!
I já jsem Toma míval rád.
I kdyby mě Tom býval pozval, nešel bych.
I když budík zazvonil, nevzbudil jsem se.
I když jsem si dvakrát vzala dvě tablety, bolesti hlavy nezmizely.
I když jsem si dvakrát vzal dvě tablety, bolesti hlavy nezmizely.
I když jsme čekali až do deseti, Bill se vůbec neukázal.
I když nemluví maďarsky říká, že je Maďarka.
I když Tom trval na tom, abychom to udělali, odmítli jsme.
I když vyrostla v Japonsku, stále hovoří plynule anglicky.
I malé dítě by to pochopilo.
Imigranti v Evropě zneužívají pohostinnosti.
Inteligence je schopnost přizpůsobit se změně.
Internet je hrozně pomalý.
Internet je velmi pomalý.
I sám Tom tím byl podveden.
I tak ti děkuju.
Itálie je daleko od Brazílie.
I Tom z toho bude mít užitek.
I ty, Brute?
I ženy chtějí mít sex.
Já a Tom jsme na vině.
Já a Tom jsme přátelé už od základní školy.
Já a Tom jsme spolu tancovali.
Jablka, která mi poslal byla výborná.
Jablko nepadá daleko od stromu.
Jablko spadlo.
Já bych to snad mohl zvládnout.
Já bydlím v Turecku.
Já byl hned za Tomem.
Já čaj nepiji.
Já chci kávu.
Já chci k jídlu sýr.
Já chci vědět, co ty tu děláš.
Jack koupil svému příteli dárek.
Já ho znám, ale on mě ne.
Já i moje žena s vámi chceme jet do Bostonu.
Já jen chci týden sedět na pláži a relaxovat.
Já jen doufám, že tentokrát se nic zlého nepřihodí.
Já ještě jím.
Já jím tady.
Já jsem duhu nikdy neviděl.
Já jsem je nevolil.
Já jsem jen ventiloval.
Já jsem Josef Patočka a pracuji na Ministerstvu zahraničí.
Já jsem lhala.
Já jsem nekřičel.
Já jsem se po celou dobu nudil.
Já jsem tady.
Já jsem ten, koho chceš.
Já jsem tomu taky nerozumněla.
Já jsem včera večeřel, ale Tom myslím ne.
Já jsem z Tokia.
Jaká bude naše budoucnost?
Jaká bude naše budoucnost?
Jaká je Lybie?
Jaká je minimální mzda na Kubě?
Jaká je odsud nejkratší cesta na pláž?
Jaká je pracovní náplň?
Jaká je pro vás ideální venkovní teplota? Pro mě je to okolo 20 °C.
Jaká je šance, že se to bude opakovat?
Jaká je teplota ledu?
Jaká je vaše oblíbená část toho příběhu?
Jaká krásná myšlenka!
Jaká nemoc ji trápí?
Jaká pravidla jsem porušil?
Jaká to škoda, že jeho život byl tak brzo přerušen.
Jaká zvířata se z nás vyvinou?
Jak blbé!
Jak by jsi mě mohla takhle zradit potom všem, čím jsme si prošli?
Jak by jsi mě mohl takhle zradit potom všem, čím jsme si prošli?
Jak bylo na pláži?
Jak byl Tom zraněn?
Jak byly ty bomby odpáleny?
Jak by měl vypadat?
Jak by měl vypadat?
Jak by někdo mohl žít na takovémto místě?
Jak bys definoval „štěstí“?
Jak byste se charakterizovali?
Jak často jezdíš do zahraničí?
Jak často krmíš ryby?
Jak chceš.
Jak daleko je odsud knihovna?
Jak dlouhá je tato řeka?
Jak dlouho budeme muset nosit roušky?
Jak dlouho byl Tom nemocný?
Jak dlouho ještě budeme muset čekat na Toma?
Jak dlouho ještě musíme čekat na Toma?
Jak dlouho jsi čekal?
Jak dlouho jsi tomu byl vystaven?
Jak dlouho jsi zamilovaná do Toma?
Jak dlouho jste čekala?
Jak dlouho jste čekal?
Jak dlouho musím čekat na příští autobus?
Jak dlouho myslíš, že to ještě potrvá?
Jak dlouho na mě čekáte?
Jak dlouho pro vás Tom pracoval?
Jak dlouho snídáš?
Jak dlouho spolu Tom a Mary chodili, než se vzali?
Jak dlouho’s zůstal na párty?
Jak dlouho tady budeš?
Jak dlouho to budeme muset dělat?
Jak dlouho to tam trvá autobusem?
Jak dlouho to trvá na motorce z tvého domu do kanceláře?
Jak dlouho už jsi bez práce?
Jak dlouho vám trvá jíst snídani?
Jak dlouho vám trvá snídaně?
Jak dlouho vydrží tato baterie?
Jak dlouho žije želva?
Jak dlouho žijí žáby?
Jak dlouho zvracíš?
Jak důležitá je pro vás rodina?
Jaké barvy jsou ty jablka?
Jaké bylo počasí, když jsi byl v Bostonu?
Jaké filmy se líbí Tomovi a Mary?
Jaké je dnes počasí?
Jaké je největší letiště na světě?
Jaké je Tomovo oblíbené pití?
Jaké je vaše datum narození?
Jaké jsou přesné rozměry této místnosti?
Jaké kolo si chce Tom koupit?
Jaké máš zaměření?
Jaké místnosti jsou ve tvém domě?
Jaké oblečení máš rád?
Jaké písničky bys měl na seznamu?
Jaké roztomilé dítě!
Jaké víno máš raději?
Jaké závěry vyvodili?
Jaké změny bychom měli udělat?
Jak jsem si to měl představit?
Jak jsi došel k tomu, že jsi Tomův manažer?
Jak jsi příbuzný s Tomem?
Jak jsi přišel na ten nápad?
Jak jsi vařil tuto polévku?
Jak jsi věděl, že tam budu?
Jak jsme daleko?
Jak jste Toma přesvědčili, aby vám pomohl?
Jak krásná duha!
Jak lidé dokážou spát v letadle?
Jak Mary tak i Tom to nesnášeli.
Jak mě Tom pozná?
Jakmile jsme uviděli, co má Tom na sobě, dostali jsme záchvat smíchu.
Jakmile Tam dorazil Tom, mnoho lidí odešlo.
Jak moc nebezpečný je Tom?
Jak mohu zhubnout?
Jak můžeme snížit náklady?
Jak na to?
Jako dítě jsem často chodíval plavat v moři.
Jako manžel jsi k ničemu.
Jako náctiletý, Tom jedl chleba se sádlem.
Jako obvykle se opozdil a nechal nás dlouho čekat.
Jakou barvu mají ti ptáci?
Jakou barvu mají Tomovy ponožky?
Jakou barvu mají ty jablka?
Jakou barvu měly Tomovy ponožky?
Jakou cenu má tohle auto?
Jakou funkci má klávesnice F5?
Jakou nejbláznivější věc jste udělali v poslední době?
Jakou radu mi můžete dát?
Jakou zeleninu chceš koupit?
Jak pěkné máš auto! Určitě jsi za něj hodně zaplatil.
Jak se anglicky řekne "Americký fotbal"?
Jak se chová ve společnosti dívek?
Jak se do lesa volá, tak se z lesa ozývá.
Jak se jmenoval ten film, co jsme viděli včera?
Jak se jmenuje ta osoba, která vám pomohla?
Jak se jmenuje tato květina?
Jak se jmenuje tato ulice?
Jak se jmenuje ten člověk, co ti pomohl?
Jak se jmenuje tvá žena?
Jak se jmenuje tvije sestra?
Jak se jmenuje tvoje webová stránka?
Jak se jmenuje tvůj táta?
Jak se máš? Dlouho jsem tě neviděl.
Jak se máš? Dobře, díky!
Jak se můžu obětovat v něco, v co nevěřím?
Jak se opovažuješ Tomovi tykat?
Jak se řekne "borovicové šišky" ve vašem jazyce?
Jak se řekne humr francouzsky?
Jak se říká tomuhle ptákovi?
Jak ses cítil, když to řekla?
Jak se sem ten bot dostal?
Jak ses o ní dozvěděl?
Jak ses opovážil!
Jak ses seznámila s Tomem?
Jak se tato vesnice jmenuje?
Jak se to řekne česky?
Jak se to tu ocitlo?
Jak se zdá, Tom nikdy nepláče.
Jak si dospěl k tomu závěru?
Jak si mohl vzít další ženu den po smrti své první ženy!
Jak si můžu zdokonalit svoji angličtinu? Je k osvojení nějaký snadný způsob, jak ji zlepšit?
Jak si přeješ.
Jak si přejete.
Jak si tím můžeš být jistý?
Jak si toho zvládl tolik za tak krátkou dobu?
Jak stará je tato budova?
Jak starý je tvůj mladší syn?
Jak s tebou zacházejí?
Jak to jde?
Jak Toma přesvědčili, aby se připojil?
Jak to může vydržet?
Jak to víš?
Jak to vypadá?
Jak ty bomby explodovaly?
Jak vás můžeme kontaktovat?
Jak vás můžu zkontaktovat?
Jak víme, že Tom říká pravdu?
Jak vnímáte svůj život?
Jak vypadám?
Jak vysoká je Eiffelova věž?
Jaký by býval byl můj život, kdybych si tě nevzal?
Jaký chytrý hoch!
Jaký člověk je Tom?
Jaký druh ryby je to?
Jaký důkaz máte?
Jaký hudební styl se ti líbí nejvíc?
Jaký je další postup?
Jaký je můj trest?
Jaký je opravdu důvod, že tohle nechceš udělat?
